// A Delete button that asks once more before acting, naming what goes and what deleting it does.
import { useState } from 'preact/hooks';

export function ConfirmDelete({ what, name, warning, onConfirm }: {
  /** The kind of thing ("scene", "vault"), said in the button's name. */
  what: string;
  name: string;
  /** What deleting does, said in the question. */
  warning?: string;
  onConfirm: () => Promise<void> | void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" onClick={() => setAsking(true)} aria-label={`Delete ${what} ${name}`}>Delete</button>;
  return (
    <span role="group" aria-label={`Confirm deleting ${what} ${name}`}>
      Delete {what} {name}?{warning ? ` ${warning}` : ''}{' '}
      <button type="button" class="danger" onClick={() => { setAsking(false); void onConfirm(); }}>Yes, delete</button>{' '}
      <button type="button" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}
