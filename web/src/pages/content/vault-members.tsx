// A shared vault's members and their access (vault-access.ts): view reads its content, edit also saves
// and changes it, manage also renames the vault, deletes it and changes its members. Managers change a
// member's access or remove them here, and add a workspace member by picking them by name or e-mail
// (GET /api/vaults/:id/member-choices: the workspace's members, for a vault's managers). A viewer's role
// caps a membership at view: the server applies that whatever is chosen here.
import { useState } from 'preact/hooks';
import { api, get } from '../../api';
import { ErrorBox, Notice } from '../../components/feedback';
import { SelectField, TextField } from '../../components/field';
import { useAction, useLoad } from '../../components/use-load';
import type { Vault, VaultAccess, VaultMember } from './content-types';

const ACCESS_OPTIONS: Array<{ value: VaultAccess; label: string }> = [
  { value: 'view', label: 'View: reads its content' },
  { value: 'edit', label: 'Edit: also saves and changes content' },
  { value: 'manage', label: 'Manage: also renames, deletes and shares the vault' },
];

interface WorkspaceMember { id: string; email: string; name: string }

const who = (m: { name: string; email: string }) => (m.name ? `${m.name} (${m.email})` : m.email);

export function VaultMembers({ vault }: { vault: Vault }) {
  const path = `/api/vaults/${encodeURIComponent(vault.id)}/members`;
  const members = useLoad(() => get<{ members: VaultMember[] }>(path), [path]);
  const manages = vault.access === 'manage';
  const workspace = useLoad(() => (manages ? get<{ members: WorkspaceMember[] }>(`/api/vaults/${encodeURIComponent(vault.id)}/member-choices`) : Promise.resolve({ members: [] })), [vault.id, manages]);
  const [find, setFind] = useState('');
  const [newUser, setNewUser] = useState('');
  const [newAccess, setNewAccess] = useState<VaultAccess>('view');
  const [done, setDone] = useState('');
  const { error, run } = useAction();
  const list = members.data?.members ?? [];
  const words = find.trim().toLowerCase();
  const candidates = (workspace.data?.members ?? []).filter((m) => !list.some((v) => v.user_id === m.id) && (!words || who(m).toLowerCase().includes(words)));
  // The one left after narrowing is the one meant.
  const chosen = candidates.some((m) => m.id === newUser) ? newUser : candidates.length === 1 ? candidates[0]!.id : '';

  const setAccess = (userId: string, access: VaultAccess, who: string) =>
    run(async () => {
      await api('PUT', `${path}/${encodeURIComponent(userId)}`, { access });
      await members.reload();
      setDone(`${who} now has ${access} access.`);
    });
  const remove = (member: VaultMember) =>
    run(async () => {
      await api('DELETE', `${path}/${encodeURIComponent(member.user_id)}`);
      await members.reload();
      setDone(`${member.email} is no longer a member.`);
    });
  const add = (event: Event) => {
    event.preventDefault();
    const picked = candidates.find((m) => m.id === chosen);
    if (picked) void setAccess(picked.id, newAccess, picked.email).then(() => { setNewUser(''); setFind(''); });
  };

  return (
    <div role="region" aria-label={`Members of ${vault.name}`}>
      <h3>Members of {vault.name}</h3>
      <ErrorBox error={members.error ?? workspace.error ?? error} />
      {done ? <Notice>{done}</Notice> : null}
      {list.length === 0 && !members.loading ? <p class="muted">No members yet: only luminaries see this vault.</p> : null}
      <ul class="plain">
        {list.map((m) => (
          <li key={m.user_id} class="row">
            <span>{who(m)}</span>
            {manages ? (
              <>
                <SelectField label={`Access of ${m.email}`} value={m.access} options={ACCESS_OPTIONS} onChange={(v) => void setAccess(m.user_id, v as VaultAccess, m.email)} />
                <button type="button" onClick={() => void remove(m)} aria-label={`Remove ${m.email} from ${vault.name}`}>Remove</button>
              </>
            ) : <span class="muted">{m.access}</span>}
          </li>
        ))}
      </ul>
      {manages ? (
        <form class="row" onSubmit={add} aria-label={`Add a member to ${vault.name}`}>
          <TextField label="Find a member" type="search" value={find} onInput={setFind} placeholder="name or e-mail" />
          <SelectField label="Member to add" value={chosen} options={[{ value: '', label: workspace.loading ? 'Loading members…' : candidates.length ? '—' : 'No one left to add' }, ...candidates.map((m) => ({ value: m.id, label: who(m) }))]} onChange={setNewUser} />
          <SelectField label="Access" value={newAccess} options={ACCESS_OPTIONS} onChange={(v) => setNewAccess(v as VaultAccess)} />
          <button type="submit" disabled={!chosen}>Add member</button>
        </form>
      ) : null}
    </div>
  );
}
