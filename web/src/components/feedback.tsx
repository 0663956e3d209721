// How pages show an error, a wait and a notice: errors are announced to screen readers (role=alert).
import type { ComponentChildren } from 'preact';
import { ApiError } from '../api';

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const body = error instanceof ApiError ? error.body : undefined;
  const reason = typeof body?.reason === 'string' ? body.reason : undefined;
  return (
    <div class="error" role="alert">
      {message.includes('\n') ? <pre class="error-text">{message}</pre> : <strong>{message}</strong>}
      {reason ? <p>Why: {reason}</p> : null}
      {error instanceof ApiError && error.code ? <p class="muted">code: {error.code}</p> : null}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice" role="status">
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return <p class="muted" role="status">Loading {what}…</p>;
}
