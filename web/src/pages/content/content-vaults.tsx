// Vaults on the Content page: the ones you may see with your access, a form to create a shared vault
// (editors and above), and for a vault you manage: rename, delete and its members. Deleting a vault that
// still holds scenes, mosaics or signals is refused by the server (409 vault_not_empty); its message,
// which says how many and what to do, is shown as it is. A personal vault cannot be deleted or shared.
import { useState } from 'preact/hooks';
import { api, post } from '../../api';
import { ConfirmDelete } from '../../components/confirm-delete';
import { ErrorBox, Notice } from '../../components/feedback';
import { Section, TextField } from '../../components/field';
import { useAction } from '../../components/use-load';
import type { Vault } from './content-types';
import { VaultMembers } from './vault-members';

interface Props {
  vaults: Vault[];
  reload: () => Promise<void>;
  canCreate: boolean;
}

function RenameVault({ vault, onDone }: { vault: Vault; onDone: (renamed: string) => Promise<void> }) {
  const [name, setName] = useState(vault.name);
  const [description, setDescription] = useState(vault.description);
  const { error, run } = useAction();
  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await api('PATCH', `/api/vaults/${encodeURIComponent(vault.id)}`, { name, description });
      await onDone(name);
    });
  };
  return (
    <form class="row" onSubmit={save} aria-label={`Rename vault ${vault.name}`}>
      <TextField label="New name" value={name} onInput={setName} required />
      <TextField label="Description" value={description} onInput={setDescription} />
      <button type="submit">Save vault</button>
      <ErrorBox error={error} />
    </form>
  );
}

export function Vaults({ vaults, reload, canCreate }: Props) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [renaming, setRenaming] = useState<string>();
  const [sharing, setSharing] = useState<string>();
  const [done, setDone] = useState('');
  const { error, run } = useAction();

  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await post('/api/vaults', { name, ...(description ? { description } : {}) });
      await reload();
      setDone(`Vault ${name} created.`);
      setName('');
      setDescription('');
    });
  };
  const remove = (vault: Vault) =>
    run(async () => {
      setDone('');
      await api('DELETE', `/api/vaults/${encodeURIComponent(vault.id)}`);
      await reload();
      setDone(`Vault ${vault.name} deleted.`);
    });

  return (
    <Section title="Vaults">
      <ErrorBox error={error} />
      {done ? <Notice>{done}</Notice> : null}
      <ul class="plain vaults">
        {vaults.map((v) => (
          <li key={v.id}>
            <div class="row">
              <strong>{v.name}</strong>
              <span class="muted">{v.personal ? 'personal, ' : ''}your access: {v.access}{v.description ? ` · ${v.description}` : ''}</span>
              {v.access === 'manage' && !v.personal ? (
                <>
                  <button type="button" aria-expanded={renaming === v.id} onClick={() => setRenaming(renaming === v.id ? undefined : v.id)} aria-label={`Rename vault ${v.name}`}>Rename</button>
                  <button type="button" aria-expanded={sharing === v.id} onClick={() => setSharing(sharing === v.id ? undefined : v.id)} aria-label={`Members of vault ${v.name}`}>Members</button>
                  <ConfirmDelete what="vault" name={v.name} warning="Only an empty vault can be deleted." onConfirm={() => remove(v)} />
                </>
              ) : null}
            </div>
            {renaming === v.id ? (
              <RenameVault vault={v} onDone={async (renamed) => { await reload(); setRenaming(undefined); setDone(`Vault renamed to ${renamed}.`); }} />
            ) : null}
            {sharing === v.id ? <VaultMembers vault={v} /> : null}
          </li>
        ))}
      </ul>
      {canCreate ? (
        <form class="row" onSubmit={create} aria-label="New vault">
          <TextField label="Vault name" value={name} onInput={setName} required />
          <TextField label="Vault description" value={description} onInput={setDescription} />
          <button type="submit" disabled={!name.trim()}>Create vault</button>
        </form>
      ) : null}
    </Section>
  );
}
