// A member's role and removal on the members page (luminary). Removing asks once more, and says so
// plainly when the member is you; the workspace's only luminary can be neither demoted nor removed
// (the server refuses it too: 409 last_luminary).
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorBox } from '../components/feedback';
import { ROLES } from './member-invite';

interface Member { id: string; email: string; role: string }

export function MemberActions({ member, isYou, onlyLuminary, onChanged }: {
  member: Member;
  isYou: boolean;
  /** The member is the workspace's only luminary. */
  onlyLuminary: boolean;
  onChanged: (message: string) => Promise<void>;
}) {
  const [role, setRole] = useState(member.role);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>();
  const act = async (work: () => Promise<string>) => {
    setError(undefined);
    try {
      await onChanged(await work());
    } catch (e) {
      setError(e);
    }
  };
  const changeRole = () => act(async () => {
    await api('PATCH', `/api/members/${member.id}`, { role });
    return `${member.email} is now ${role}.`;
  });
  const remove = () => act(async () => {
    setConfirming(false);
    await api('DELETE', `/api/members/${member.id}`);
    return `${member.email} is removed from the workspace.`;
  });
  const id = `role-${member.id}`;
  return (
    <div class="member-actions">
      <label for={id} class="sr-only">Role of {member.email}</label>
      <select id={id} value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)} disabled={onlyLuminary}
        title={onlyLuminary ? 'The only luminary: make someone else luminary first' : undefined}>
        {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>{' '}
      <button type="button" onClick={changeRole} disabled={role === member.role} aria-label={`Change role of ${member.email}`}>Change role</button>{' '}
      {confirming ? (
        <span role="group" aria-label={`Confirm removing ${member.email}`}>
          {isYou ? <strong>This is you: you lose access to this workspace at once. </strong> : null}
          Remove {member.email}? Their keys of this workspace are deleted and their sessions in it end.{' '}
          <button type="button" class="danger" onClick={remove}>{isYou ? 'Yes, remove me' : 'Yes, remove'}</button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
        </span>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} disabled={onlyLuminary} aria-label={`Remove ${member.email}`}
          title={onlyLuminary ? 'The only luminary cannot be removed: make someone else luminary first' : undefined}>Remove</button>
      )}
      {onlyLuminary ? <p class="muted">The only luminary: make someone else luminary before changing this role.</p> : null}
      <ErrorBox error={error} />
    </div>
  );
}
