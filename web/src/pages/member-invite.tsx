// Inviting a member (luminary): an e-mail, a name and a role. Someone without an account gets one with
// a generated password, shown here once for the luminary to pass on (no e-mail is sent: the service has
// no mail of its own, and `svc users create` works the same way); someone with an account joins with
// their own password.
import { useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorBox } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { useAction } from '../components/use-load';

export const ROLES = ['viewer', 'tracer', 'editor', 'luminary'] as const;
export const ROLE_HINTS: Record<(typeof ROLES)[number], string> = {
  viewer: 'viewer: asks and queries through keys of their own',
  tracer: 'tracer: also the SQL editor',
  editor: 'editor: also deploys the model, saves scenes and mosaics',
  luminary: 'luminary: also members, roles, connections, every key',
};

interface Invited {
  member: { id: string; email: string; role: string };
  new_user: boolean;
  one_time_password: string | null;
}

export function InviteMember({ onInvited }: { onInvited: (message: string) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<string>('viewer');
  const [secret, setSecret] = useState<{ email: string; password: string }>();
  const action = useAction();
  const invite = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const invited = await post<Invited>('/api/members', { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) });
      setEmail('');
      setName('');
      if (invited.one_time_password) setSecret({ email: invited.member.email, password: invited.one_time_password });
      await onInvited(
        invited.new_user
          ? `${invited.member.email} is invited as ${invited.member.role}.`
          : `${invited.member.email} already had an account and joined as ${invited.member.role}; they sign in with their own password.`,
      );
    });
  };
  return (
    <>
      <form onSubmit={invite} class="row" aria-label="Invite a member">
        <TextField label="E-mail" type="email" value={email} onInput={setEmail} required autoComplete="off" />
        <TextField label="Name (optional)" value={name} onInput={setName} autoComplete="off" />
        <SelectField label="Role" value={role} onChange={setRole} options={ROLES.map((r) => ({ value: r, label: ROLE_HINTS[r] }))} />
        <button type="submit">Invite</button>
      </form>
      <ErrorBox error={action.error} />
      {secret ? (
        <SecretOnce title={`Password of ${secret.email}`} label={`One-time password of ${secret.email}`} value={secret.password} onDone={() => setSecret(undefined)}>
          <p>Pass it on to them privately: they sign in with {secret.email} and this password. No e-mail is sent.</p>
        </SecretOnce>
      ) : null}
    </>
  );
}
