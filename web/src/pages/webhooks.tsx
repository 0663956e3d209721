// Webhooks (luminaries) on the Content page: add an endpoint (its signing secret is shown once),
// enable or disable it (one the service disabled says why), rotate its secret (the new one shown once;
// the previous one keeps signing for 24 h), send a test event, read the delivery log, delete it after a
// confirmation. Secrets live only in the component state of the notice that shows them.
import { useState } from 'preact/hooks';
import { api, get, post } from '../api';
import { ErrorBox, Notice } from '../components/feedback';
import { Section, SelectField, TextField } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { useAction, useLoad } from '../components/use-load';
import { DeliveryLog } from './webhook-deliveries';

interface Webhook { id: string; url: string; format: string; events: string[]; enabled: boolean; disabled_reason: string | null; description: string; previous_secret_expires_at: string | null }
interface Shown { title: string; value: string; until?: string }

// A chat webhook (Slack, Teams) takes {"text": …}: scheduled deliveries send it a plain-text table.
const FORMATS = [
  { value: 'standard', label: 'Signed JSON (Standard Webhooks)' },
  { value: 'chat', label: 'Chat text (Slack, Teams)' },
];
const EVENTS = [
  { value: '*', label: 'All events' },
  { value: 'signal.triggered', label: 'signal.triggered' },
  { value: 'model.deployed', label: 'model.deployed' },
];
const REASONS: Record<string, string> = {
  gone: 'the receiver answered 410 Gone',
  failing: 'no successful delivery for 3 days',
};

function state(hook: Webhook): string {
  if (hook.enabled) return 'enabled';
  return hook.disabled_reason ? `disabled by the service: ${REASONS[hook.disabled_reason] ?? hook.disabled_reason}` : 'disabled';
}

function CreateWebhook({ onCreated }: { onCreated: (hook: Webhook, secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [description, setDescription] = useState('');
  const [format, setFormat] = useState('standard');
  const { error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const answer = await post<{ webhook: Webhook; secret: string }>('/api/webhooks', { url, format, events: [events], ...(description ? { description } : {}) });
      setUrl('');
      setDescription('');
      onCreated(answer.webhook, answer.secret);
    });
  };
  return (
    <form onSubmit={submit} aria-label="New webhook">
      <div class="form-grid">
        <TextField label="Endpoint URL" type="url" value={url} onInput={setUrl} required placeholder="https://example.com/hooks" />
        <SelectField label="Events" value={events} options={EVENTS} onChange={setEvents} />
        <SelectField label="Format" value={format} options={FORMATS} onChange={setFormat} />
        <TextField label="Description (optional)" value={description} onInput={setDescription} />
        <div><button type="submit">Add webhook</button></div>
      </div>
      <ErrorBox error={error} />
    </form>
  );
}

function WebhookItem({ hook, onChanged, onSecret }: { hook: Webhook; onChanged: (notice: string) => Promise<void>; onSecret: (shown: Shown) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [logShown, setLogShown] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const { error, run } = useAction();
  const path = `/api/webhooks/${encodeURIComponent(hook.id)}`;
  const setEnabled = (enabled: boolean) => run(async () => { await api('PATCH', path, { enabled }); await onChanged(`${hook.url} is ${enabled ? 'enabled' : 'disabled'}.`); });
  const rotate = () =>
    run(async () => {
      const answer = await post<{ webhook: Webhook; secret: string }>(`${path}/rotate-secret`);
      onSecret({ title: `New signing secret of ${hook.url}`, value: answer.secret, until: answer.webhook.previous_secret_expires_at ?? undefined });
    });
  const test = () =>
    run(async () => {
      await post(`${path}/test`);
      setLogShown(true);
      setRefresh((n) => n + 1);
      await onChanged(`A webhook.test event is queued for ${hook.url}: follow it in the delivery log.`);
    });
  const remove = () => run(async () => { await api('DELETE', path); await onChanged(`${hook.url} is deleted.`); });
  return (
    <li class="panel" aria-label={`Webhook ${hook.url}`}>
      <code>{hook.url}</code> <span class="muted">{hook.events.map((e) => (e === '*' ? 'all events' : e)).join(', ')}{hook.format === 'chat' ? ' · chat text' : ''}{hook.description ? ` · ${hook.description}` : ''}</span>
      <p>State: <span class={`status ${hook.enabled ? 'ok' : 'error'}`}>{state(hook)}</span></p>
      <div class="row">
        <button type="button" onClick={() => setEnabled(!hook.enabled)}>{hook.enabled ? 'Disable' : 'Enable'}</button>
        <button type="button" onClick={test}>Send test event</button>
        <button type="button" onClick={rotate}>Rotate secret</button>
        <button type="button" onClick={() => setLogShown(!logShown)}>{logShown ? 'Hide delivery log' : 'Delivery log'}</button>
        <button type="button" onClick={() => setConfirming(true)}>Delete</button>
      </div>
      <ErrorBox error={error} />
      {confirming ? (
        <p role="group" aria-label={`Confirm deleting ${hook.url}`}>
          Delete this endpoint and its delivery log? Nothing more will be sent to it.{' '}
          <button type="button" class="danger" onClick={remove}>Yes, delete</button> <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
        </p>
      ) : null}
      {logShown ? <DeliveryLog hook={hook} refreshKey={refresh} /> : null}
    </li>
  );
}

export function Webhooks() {
  const hooks = useLoad(() => get<{ webhooks: Webhook[] }>('/api/webhooks'));
  const [secret, setSecret] = useState<Shown>();
  const [notice, setNotice] = useState('');
  // The notice follows the reloaded list, so it never announces what the list does not show yet.
  const changed = async (text: string) => { await hooks.reload(); setNotice(text); };
  return (
    <Section title="Webhooks">
      <CreateWebhook onCreated={(hook, value) => { setSecret({ title: `Signing secret of ${hook.url}`, value }); changed(`${hook.url} is added.`); }} />
      {secret ? (
        <SecretOnce title={secret.title} label="Signing secret" value={secret.value} onDone={() => setSecret(undefined)}>
          {secret.until ? <p>The previous secret stays valid too until {new Date(secret.until).toLocaleString()} (24 h): deliveries carry a signature by each, so switch your receiver over before then.</p> : null}
        </SecretOnce>
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorBox error={hooks.error} />
      <ul class="plain">
        {(hooks.data?.webhooks ?? []).map((h) => <WebhookItem key={`${h.id}:${h.enabled}`} hook={h} onChanged={changed} onSecret={setSecret} />)}
      </ul>
      {hooks.data?.webhooks.length === 0 ? <p class="muted">No webhooks yet.</p> : null}
    </Section>
  );
}
