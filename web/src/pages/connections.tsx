// Warehouse connections (luminaries): create per engine, test (with the role's privileges and warnings),
// edit, delete with a confirmation.
import { useState } from 'preact/hooks';
import { api, get, post } from '../api';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { Section } from '../components/field';
import { useLoad } from '../components/use-load';
import { ConnectionForm, type Connection, type ConnectionDraft } from './connection-form';

interface TestResult {
  ok: boolean;
  engine: string;
  duration_ms?: number;
  error?: string;
  warnings?: Array<{ code: string; message: string }>;
}

function TestOutcome({ name, result }: { name: string; result: TestResult }) {
  return (
    <div class={result.ok ? 'notice' : 'error'} role="status">
      <strong>{result.ok ? `${name}: connected` : `${name}: failed`}</strong>
      {result.duration_ms !== undefined ? <span class="muted"> ({Math.round(result.duration_ms)} ms)</span> : null}
      {result.error ? <p>{result.error}</p> : null}
      {(result.warnings ?? []).map((w) => <p key={w.code}>Warning: {w.message}</p>)}
    </div>
  );
}

export function ConnectionsPage() {
  const list = useLoad(() => get<{ connections: Connection[] }>('/api/connections'));
  const [editing, setEditing] = useState<Connection>();
  const [deleting, setDeleting] = useState<Connection>();
  const [tested, setTested] = useState<{ name: string; result: TestResult }>();
  const [error, setError] = useState<unknown>();
  const [notice, setNotice] = useState('');
  const [formKey, setFormKey] = useState(0);

  const act = async (work: () => Promise<string | void>) => {
    setError(undefined);
    setNotice('');
    try {
      const message = await work();
      await list.reload();
      if (message) setNotice(message);
    } catch (e) {
      setError(e);
    }
  };

  const create = (draft: ConnectionDraft) =>
    act(async () => {
      await post('/api/connections', { name: draft.name, engine: draft.engine, settings: draft.settings, ...(draft.password ? { password: draft.password } : {}) });
      setFormKey((k) => k + 1);
      return `Connection ${draft.name} created.`;
    });
  const save = (connection: Connection, draft: ConnectionDraft) =>
    act(async () => {
      await api('PATCH', `/api/connections/${connection.id}`, { name: draft.name, settings: draft.settings, ...(draft.password !== undefined ? { password: draft.password } : {}) });
      setEditing(undefined);
      return `Connection ${draft.name} saved.`;
    });
  const test = (connection: Connection) =>
    act(async () => setTested({ name: connection.name, result: await post<TestResult>(`/api/connections/${connection.id}/test`) }));
  const remove = (connection: Connection) =>
    act(async () => {
      await api('DELETE', `/api/connections/${connection.id}`);
      setDeleting(undefined);
      return `Connection ${connection.name} deleted.`;
    });

  return (
    <div>
      <h1>Connections</h1>
      <ErrorBox error={error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {tested ? <TestOutcome {...tested} /> : null}
      <Section title="Connections">
        {list.loading && !list.data ? <Loading what="connections" /> : null}
        <ErrorBox error={list.error} />
        <div class="table-wrap">
          <table>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Engine</th><th scope="col">Settings</th><th scope="col">Password</th><th scope="col">Actions</th></tr>
            </thead>
            <tbody>
              {(list.data?.connections ?? []).map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>{c.engine}</td>
                  <td><code>{Object.entries(c.settings).map(([k, v]) => `${k}=${String(v)}`).join(' ')}</code></td>
                  <td>{c.has_password ? 'saved' : 'none'}</td>
                  <td class="row">
                    <button type="button" onClick={() => test(c)} aria-label={`Test ${c.name}`}>Test</button>
                    <button type="button" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>Edit</button>
                    {deleting?.id === c.id ? (
                      <span role="group" aria-label={`Confirm deleting ${c.name}`}>
                        Delete {c.name}?{' '}
                        <button type="button" class="danger" onClick={() => remove(c)}>Yes, delete</button>{' '}
                        <button type="button" onClick={() => setDeleting(undefined)}>Cancel</button>
                      </span>
                    ) : (
                      <button type="button" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name}`}>Delete</button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      {editing ? (
        <Section title={`Edit ${editing.name}`}>
          <ConnectionForm key={editing.id} editing={editing} onSubmit={(d) => save(editing, d)} onCancel={() => setEditing(undefined)} />
        </Section>
      ) : null}
      <Section title="New connection">
        <ConnectionForm key={formKey} onSubmit={create} />
      </Section>
    </div>
  );
}
