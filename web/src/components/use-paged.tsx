// A list the server answers in cursor pages ({<items>, next_cursor}): the first page on load (and on
// reload()), further pages appended by more(), which the "Load more" button calls while a next_cursor is left.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { get } from '../api';

interface Paged<T> {
  items: T[];
  next: string | null;
  error?: unknown;
  loading: boolean;
}

/** `path` may carry a query string (null: nothing to read, the list stays empty); `field` names the array in each page's answer. */
export function usePaged<T>(path: string | null, field: string, deps: unknown[] = []) {
  const [state, setState] = useState<Paged<T>>({ items: [], next: null, loading: path !== null });
  const page = (cursor?: string) => {
    const base = path ?? '';
    const url = cursor ? `${base}${base.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : base;
    return get<Record<string, unknown> & { next_cursor: string | null }>(url).then((answer) => ({ items: (answer[field] ?? []) as T[], next: answer.next_cursor ?? null }));
  };
  // Resolves once the first page is in state (see useLoad).
  const reload = useCallback((): Promise<void> => {
    if (path === null) {
      setState({ items: [], next: null, loading: false });
      return Promise.resolve();
    }
    setState((s) => ({ ...s, loading: true }));
    return page().then(
      (first) => setState({ ...first, loading: false }),
      (error: unknown) => setState((s) => ({ ...s, error, loading: false })),
    );
  }, [path, ...deps]);
  useEffect(() => void reload(), [reload]);
  const more = () => {
    if (!state.next) return;
    setState((s) => ({ ...s, loading: true }));
    page(state.next).then(
      (next) => setState((s) => ({ items: [...s.items, ...next.items], next: next.next, loading: false })),
      (error: unknown) => setState((s) => ({ ...s, error, loading: false })),
    );
  };
  return { ...state, reload, more };
}

/** Shown under a paged list while the server has more of it. */
/** The end of a paged list: "Load more" while the server has more, or `empty` when it had none. */
export function LoadMore({ list, what, empty }: { list: { items: readonly unknown[]; next: string | null; loading: boolean; more: () => void }; what: string; empty?: string }) {
  if (empty && !list.loading && list.items.length === 0) return <p class="muted">{empty}</p>;
  if (!list.next) return null;
  return (
    <button type="button" onClick={list.more} disabled={list.loading} aria-label={`Load more ${what}`}>
      Load more
    </button>
  );
}
