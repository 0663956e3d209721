// Content: scenes and mosaics (content-runs.tsx), signals
// and their state, and (luminaries) webhooks with their delivery log.
import { useState } from 'preact/hooks';
import { get } from '../api';
import { ErrorBox } from '../components/feedback';
import { Section } from '../components/field';
import { useAction, useLoad } from '../components/use-load';
import type { Me } from '../session';
import { Mosaics, Scenes } from './content-runs';
import { Signals } from './signals';

interface Webhook { id: string; url: string; events: string[]; enabled: boolean; disabled_reason: string | null }
interface Delivery { id: string; event: string; status: string; attempts: number; last_status_code: number | null; last_error: string | null; created_at: string }

function Webhooks() {
  const hooks = useLoad(() => get<{ webhooks: Webhook[] }>('/api/webhooks'));
  const [log, setLog] = useState<{ hook: Webhook; deliveries: Delivery[] }>();
  const { error, run } = useAction();
  const show = (hook: Webhook) => run(async () => setLog({ hook, deliveries: (await get<{ deliveries: Delivery[] }>(`/api/webhooks/${hook.id}/deliveries?limit=50`)).deliveries }));
  return (
    <Section title="Webhooks">
      <ErrorBox error={hooks.error ?? error} />
      <ul>
        {(hooks.data?.webhooks ?? []).map((h) => (
          <li key={h.id}>
            <button type="button" onClick={() => show(h)} aria-label={`Deliveries of ${h.url}`}>Delivery log</button> <code>{h.url}</code>{' '}
            <span class="muted">{h.events.join(', ')}{h.enabled ? '' : ` · disabled${h.disabled_reason ? ` (${h.disabled_reason})` : ''}`}</span>
          </li>
        ))}
      </ul>
      {log ? (
        <table aria-label={`Deliveries to ${log.hook.url}`}>
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead>
          <tbody>
            {log.deliveries.map((d) => (
              <tr key={d.id}><td>{new Date(d.created_at).toLocaleString()}</td><td>{d.event}</td><td>{d.status}</td><td>{d.attempts}</td><td>{d.last_status_code ?? d.last_error ?? '—'}</td></tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

export function ContentPage({ me }: { me: Me }) {
  return (
    <div>
      <h1>Content</h1>
      <Scenes />
      <Mosaics />
      <Signals />
      {me.role === 'luminary' ? <Webhooks /> : null}
    </div>
  );
}
