// A secret the server shows once (a new webhook signing secret): visible with a copy button until
// dismissed, then gone. It lives only in the state of the component that shows it, never in storage.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export function SecretOnce({ title, label, value, onDone, children }: { title: string; label: string; value: string; onDone: () => void; children?: ComponentChildren }) {
  const [copied, setCopied] = useState(false);
  const copy = () => navigator.clipboard.writeText(value).then(() => setCopied(true), () => setCopied(false));
  return (
    <section class="panel created" aria-label={title}>
      <h3>{title}</h3>
      <p>Copy it now: it is shown only this once and is not kept by this page.</p>
      <p>
        <code class="secret" aria-label={label}>{value}</code>{' '}
        <button type="button" onClick={copy}>{copied ? 'Copied' : 'Copy secret'}</button>
      </p>
      {children}
      <button type="button" onClick={onDone}>Done, hide the secret</button>
    </section>
  );
}
