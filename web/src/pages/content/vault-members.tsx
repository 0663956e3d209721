// A shared vault's members and their access (vault-access.ts): view reads its content, edit also saves
// and changes it, manage also renames the vault, deletes it and changes its members. Managers change a
// member's access or remove them here, and add a workspace member by picking them (luminaries, who may
// list the workspace's members) or by their user id. A viewer's role caps a membership at view: the
// server applies that whatever is chosen here.
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

export function VaultMembers({ vault, canList }: { vault: Vault; canList: boolean }) {
  const path = `/api/vaults/${encodeURIComponent(vault.id)}/members`;
  const members = useLoad(() => get<{ members: VaultMember[] }>(path), [path]);
  const workspace = useLoad(() => (canList ? get<{ members: WorkspaceMember[] }>('/api/members') : Promise.resolve({ members: [] })), [canList]);
  const [newUser, setNewUser] = useState('');
  const [newAccess, setNewAccess] = useState<VaultAccess>('view');
  const [done, setDone] = useState('');
  const { error, run } = useAction();
  const manages = vault.access === 'manage';
  const list = members.data?.members ?? [];
  const candidates = (workspace.data?.members ?? []).filter((m) => !list.some((v) => v.user_id === m.id));

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
    const who = workspace.data?.members.find((m) => m.id === newUser)?.email ?? newUser;
    if (newUser) void setAccess(newUser.trim(), newAccess, who).then(() => setNewUser(''));
  };

  return (
    <div role="region" aria-label={`Members of ${vault.name}`}>
      <h3>Members of {vault.name}</h3>
      <ErrorBox error={members.error ?? error} />
      {done ? <Notice>{done}</Notice> : null}
      {list.length === 0 && !members.loading ? <p class="muted">No members yet: only luminaries see this vault.</p> : null}
      <ul class="plain">
        {list.map((m) => (
          <li key={m.user_id} class="row">
            <span>{m.name ? `${m.name} (${m.email})` : m.email}</span>
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
          {canList ? (
            <SelectField label="Member to add" value={newUser} options={[{ value: '', label: '—' }, ...candidates.map((m) => ({ value: m.id, label: m.name ? `${m.name} (${m.email})` : m.email }))]} onChange={setNewUser} />
          ) : (
            <TextField label="User id to add" value={newUser} onInput={setNewUser} hint="Their user id: a luminary sees it on the Users page" />
          )}
          <SelectField label="Access" value={newAccess} options={ACCESS_OPTIONS} onChange={(v) => setNewAccess(v as VaultAccess)} />
          <button type="submit" disabled={!newUser}>Add member</button>
        </form>
      ) : null}
    </div>
  );
}
