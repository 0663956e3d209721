// API keys: create one (its value is shown once, from the create answer, and kept nowhere), with curl
// lines that work as printed (the certificate to trust, a query and a question over the live model),
// list them by prefix, revoke with a confirmation.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { ConfirmRevoke } from '../components/confirm-revoke';
import { Checkbox, Section, SelectField, TextField } from '../components/field';
import { useLoad } from '../components/use-load';
import { LoadMore, usePaged } from '../components/use-paged';
import type { Me } from '../session';
import { OauthGrants } from './oauth-grants';

/** What this page reads of a key in GET /api/keys. */
interface Key {
  id: string;
  name: string;
  surface: 'question' | 'workspace' | 'structured';
  prefix: string;
  scopes: string[];
  status: 'active' | 'revoked' | 'expired';
  last_used_at: string | null;
  expires_at: string | null;
}

const SURFACES = [
  { value: 'question', label: 'Question API (A): /api/v1/ask' },
  { value: 'workspace', label: 'Workspace API (B): /api/v1/workspace, HTTPS only' },
  { value: 'structured', label: 'Structured API (C): /v1/…' },
];
const SCOPES = ['query', 'models:read', 'content:read', 'models:write', 'content:write', 'users:read', 'users:write', 'ask', 'sql'];
const DEFAULT_SCOPES = ['query', 'models:read', 'content:read'];

/** GET /api/keys/examples: the certificate to trust, and a query and a question over the live model. */
interface Examples {
  ca_file: string | null;
  structured_query: { node: string; dimensions: string[]; measures: string[] } | null;
  question: string | null;
}

/** A word for a POSIX shell: as it is when plain, else in single quotes (a quote inside written '\''). */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

export function curlSnippets(surface: Key['surface'], value: string, scopes: string[], origin: string, examples: Examples): string[] {
  const curl = examples.ca_file ? `curl --cacert ${shellWord(examples.ca_file)}` : 'curl';
  const auth = `${curl} -H "Authorization: Bearer ${value}"`;
  const json = (body: object) => `-H 'content-type: application/json' -d ${shellWord(JSON.stringify(body))}`;
  if (surface === 'question') {
    return [...(examples.question ? [`${auth} ${json({ question: examples.question })} ${origin}/api/v1/ask`] : []), `${auth} ${origin}/api/v1/reveals`];
  }
  if (surface === 'workspace') return [`${auth} ${origin.replace(/^http:/, 'https:')}/api/v1/workspace`];
  const lines: string[] = [];
  if (scopes.includes('models:read')) lines.push(`${auth} ${origin}/v1/nodes`);
  if (scopes.includes('query') && examples.structured_query) lines.push(`${auth} ${json(examples.structured_query)} ${origin}/v1/query`);
  if (scopes.includes('content:read')) lines.push(`${auth} ${origin}/v1/scenes`);
  return lines;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function CreatedKey({ surface, value, scopes, onDone }: { surface: Key['surface']; value: string; scopes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const examples = useLoad(() => get<Examples>('/api/keys/examples'));
  const copy = async () => {
    await navigator.clipboard.writeText(value).then(() => setCopied(true), () => setCopied(false));
  };
  return (
    <section class="panel created" aria-label="New key">
      <h2>Your new key</h2>
      <p>Copy it now: it is shown only this once and is not kept by this page.</p>
      <p>
        <code class="secret" aria-label="Key value">{value}</code>{' '}
        <button type="button" onClick={copy}>{copied ? 'Copied' : 'Copy key'}</button>
      </p>
      <h3>Try it</h3>
      <ErrorBox error={examples.error} />
      {examples.data
        ? curlSnippets(surface, value, scopes, location.origin, examples.data).map((line) => (
            <pre key={line}><code>{line}</code></pre>
          ))
        : null}
      <button type="button" onClick={onDone}>Done, hide the key</button>
    </section>
  );
}

export function KeysPage({ me }: { me: Me }) {
  const keys = usePaged<Key>('/api/keys?limit=50', 'keys');
  const [name, setName] = useState('');
  const [surface, setSurface] = useState<Key['surface']>('question');
  const [expires, setExpires] = useState('');
  const [scopes, setScopes] = useState<string[]>(DEFAULT_SCOPES);
  const [rateLimit, setRateLimit] = useState('');
  const [created, setCreated] = useState<{ surface: Key['surface']; value: string; scopes: string[] }>();
  const [error, setError] = useState<unknown>();
  const [confirming, setConfirming] = useState<Key>();
  const [notice, setNotice] = useState('');

  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const body = {
        name,
        surface,
        ...(expires ? { expires_at: `${expires}T23:59:59Z` } : {}),
        ...(surface === 'structured' ? { scopes } : {}),
        ...(rateLimit ? { rate_limit: Number(rateLimit) } : {}),
      };
      const answer = await post<{ key: Key; value: string }>('/api/keys', body);
      setCreated({ surface, value: answer.value, scopes: answer.key.scopes });
      setName('');
      keys.reload();
    } catch (e) {
      setError(e);
    }
  };

  const revoke = async (key: Key) => {
    try {
      await post(`/api/keys/${encodeURIComponent(key.id)}/revoke`);
      setConfirming(undefined);
      await keys.reload();
      setNotice(`Key ${key.name} (${key.prefix}…) is revoked.`);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <div>
      <h1>API keys</h1>
      {created ? <CreatedKey {...created} onDone={() => setCreated(undefined)} /> : null}
      <Section title="Create a key">
        <form onSubmit={create} class="form-grid">
          <TextField label="Key name" value={name} onInput={setName} required />
          <SelectField label="Surface" value={surface} options={SURFACES} onChange={(v) => setSurface(v as Key['surface'])} />
          <TextField label="Expires on (optional)" type="date" value={expires} onInput={setExpires} />
          {me.role === 'luminary' ? (
            <TextField label="Rate limit per minute (optional)" type="number" value={rateLimit} onInput={setRateLimit} />
          ) : null}
          {surface === 'structured' ? (
            <fieldset>
              <legend>Scopes</legend>
              {SCOPES.map((scope) => (
                <Checkbox key={scope} label={scope} checked={scopes.includes(scope)}
                  onChange={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
              ))}
            </fieldset>
          ) : null}
          <div><button type="submit">Create key</button></div>
        </form>
        <ErrorBox error={error} />
      </Section>
      {notice ? <Notice>{notice}</Notice> : null}
      <Section title="Keys">
        {keys.loading && keys.items.length === 0 ? <Loading what="keys" /> : null}
        <ErrorBox error={keys.error} />
        {!keys.error ? (
          <div class="table-wrap">
            <table>
              <caption class="sr-only">API keys</caption>
              <thead>
                <tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Surface</th><th scope="col">Status</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Actions</th></tr>
              </thead>
              <tbody>
                {keys.items.map((key) => (
                  <tr key={key.id}>
                    <td>{key.name}</td>
                    <td><code>{key.prefix}</code></td>
                    <td>{key.surface}{key.scopes.length ? <small class="muted"> ({key.scopes.join(', ')})</small> : null}</td>
                    <td><span class={`status ${key.status}`}>{key.status}</span></td>
                    <td>{when(key.last_used_at)}</td>
                    <td>{when(key.expires_at)}</td>
                    <td>
                      {key.status === 'active' ? (
                        <ConfirmRevoke name={key.name} warning="Requests with it will be refused." confirming={confirming?.id === key.id}
                          onAsk={() => setConfirming(key)} onCancel={() => setConfirming(undefined)} onConfirm={() => revoke(key)} />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <LoadMore list={keys} what="keys" empty="No keys yet." />
          </div>
        ) : null}
      </Section>
      <OauthGrants />
    </div>
  );
}
