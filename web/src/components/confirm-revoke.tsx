// A Revoke button that asks once more before acting: revoking cannot be undone.
export function ConfirmRevoke({ name, warning, confirming, onAsk, onCancel, onConfirm }: {
  name: string;
  /** What revoking does, said in the confirmation. */
  warning: string;
  confirming: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  if (!confirming) return <button type="button" onClick={onAsk} aria-label={`Revoke ${name}`}>Revoke</button>;
  return (
    <span role="group" aria-label={`Confirm revoking ${name}`}>
      Revoke {name}? {warning}{' '}
      <button type="button" class="danger" onClick={onConfirm}>Yes, revoke</button>{' '}
      <button type="button" onClick={onCancel}>Cancel</button>
    </span>
  );
}
