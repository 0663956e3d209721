// Members and their attributes (luminaries): invite a member (member-invite.tsx), change a role or
// remove one (member-actions.tsx), and edit the attributes the data keys read (region = Europe, …) as
// key = value lines.
import { useState } from 'preact/hooks';
import { api, get } from '../api';
import { ErrorBox, Notice } from '../components/feedback';
import { Section } from '../components/field';
import { useLoad } from '../components/use-load';
import type { Me } from '../session';
import { MemberActions } from './member-actions';
import { InviteMember } from './member-invite';

interface User { id: string; email: string; name: string; role: string; attributes: Record<string, string> }

const asLines = (attributes: Record<string, string>) => Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} = ${v}`).join('\n');

export function parseAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) attributes[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return attributes;
}

interface RowProps {
  user: User;
  isYou: boolean;
  onlyLuminary: boolean;
  onSaved: (message: string) => void;
  onChanged: (message: string) => Promise<void>;
}

function UserRow({ user, isYou, onlyLuminary, onSaved, onChanged }: RowProps) {
  const [text, setText] = useState(asLines(user.attributes));
  const [error, setError] = useState<unknown>();
  const save = async () => {
    try {
      setError(undefined);
      // The route merges: attributes no longer listed are sent as null, which removes them.
      const wanted = parseAttributes(text);
      const removed = Object.fromEntries(Object.keys(user.attributes).filter((k) => !(k in wanted)).map((k) => [k, null]));
      await api('PATCH', `/api/users/${user.id}/attributes`, { ...removed, ...wanted });
      onSaved(`Attributes of ${user.email} saved.`);
    } catch (e) {
      setError(e);
    }
  };
  const id = `attrs-${user.id}`;
  return (
    <tr>
      <td>{user.email}{isYou ? <strong> (you)</strong> : null}<br /><span class="muted">{user.name}</span></td>
      <td><MemberActions member={user} isYou={isYou} onlyLuminary={onlyLuminary} onChanged={onChanged} /></td>
      <td>
        <label for={id} class="sr-only">Attributes of {user.email}</label>
        <textarea id={id} rows={2} cols={28} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
        <ErrorBox error={error} />
      </td>
      <td><button type="button" onClick={save} aria-label={`Save attributes of ${user.email}`}>Save</button></td>
    </tr>
  );
}

export function UsersPage({ me }: { me: Me }) {
  const users = useLoad(() => get<{ users: User[] }>('/api/users'));
  const [notice, setNotice] = useState('');
  const list = users.data?.users ?? [];
  const luminaries = list.filter((u) => u.role === 'luminary').length;
  // The list is reloaded first, so that the notice is announced once the page shows the change.
  const changed = async (message: string) => {
    setNotice('');
    await users.reload();
    setNotice(message);
  };
  return (
    <div>
      <h1>Users and attributes</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      <Section title="Invite a member">
        <InviteMember onInvited={changed} />
      </Section>
      <Section title="Members">
        <ErrorBox error={users.error} />
        <div class="table-wrap">
          <table>
            <thead><tr><th scope="col">User</th><th scope="col">Role</th><th scope="col">Attributes (key = value per line)</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              {list.map((u) => (
                <UserRow key={u.id} user={u} isYou={u.id === me.user.id} onlyLuminary={u.role === 'luminary' && luminaries === 1} onSaved={setNotice} onChanged={changed} />
              ))}
            </tbody>
          </table>
        </div>
      </Section>
    </div>
  );
}
