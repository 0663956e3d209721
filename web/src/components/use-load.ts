// Loads something once (and again on reload()): { data, error, loading }.
import { useCallback, useEffect, useState } from 'preact/hooks';

export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  // Resolves once the new data is in state, so a caller can announce a change only after the page shows it.
  const run = useCallback((): Promise<void> => {
    setState((s) => ({ ...s, loading: true }));
    return load().then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => setState({ error, loading: false }),
    );
  }, deps);
  useEffect(() => void run(), [run]);
  return { ...state, reload: run };
}

/** Runs an action and keeps its error (cleared when the next one starts) for the page to show. */
export function useAction() {
  const [error, setError] = useState<unknown>();
  const run = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
    } catch (e) {
      setError(e);
    }
  };
  return { error, run };
}
