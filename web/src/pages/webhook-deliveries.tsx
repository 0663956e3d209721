// The delivery log of one webhook endpoint, newest first and a page at a time: each delivery's
// attempts, last status code and duration, the first KB of the receiver's answer, the next attempt,
// and a manual redelivery (which starts the retry schedule again).
import { post } from '../api';
import { ErrorBox, Notice } from '../components/feedback';
import { useAction } from '../components/use-load';
import { LoadMore, usePaged } from '../components/use-paged';
import { useState } from 'preact/hooks';

export interface Delivery {
  id: string; event: string; status: string; attempts: number; next_attempt_at: string | null; last_status_code: number | null;
  last_duration_ms: number | null; last_response: string | null; last_error: string | null; created_at: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function DeliveryLog({ hook, refreshKey }: { hook: { id: string; url: string }; refreshKey: number }) {
  const base = `/api/webhooks/${encodeURIComponent(hook.id)}/deliveries`;
  const log = usePaged<Delivery>(`${base}?limit=20`, 'deliveries', [refreshKey]);
  const [notice, setNotice] = useState('');
  const { error, run } = useAction();
  const redeliver = (d: Delivery) =>
    run(async () => {
      await post(`${base}/${encodeURIComponent(d.id)}/redeliver`);
      await log.reload();
      setNotice(`The ${d.event} delivery is queued again.`);
    });
  return (
    <div>
      <div class="row">
        <h3>Delivery log</h3>
        <button type="button" onClick={log.reload} aria-label={`Refresh deliveries of ${hook.url}`}>Refresh</button>
      </div>
      <ErrorBox error={log.error ?? error} />
      {notice ? <Notice>{notice}</Notice> : null}
      <div class="table-wrap">
        <table aria-label={`Deliveries to ${hook.url}`}>
          <thead>
            <tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Status code</th><th scope="col">Duration</th><th scope="col">Response (first KB)</th><th scope="col">Next attempt</th><th scope="col">Actions</th></tr>
          </thead>
          <tbody>
            {log.items.map((d) => (
              <tr key={d.id}>
                <td>{when(d.created_at)}</td>
                <td>{d.event}</td>
                <td><span class={`status ${d.status}`}>{d.status}</span>{d.last_error ? <small class="muted"> {d.last_error}</small> : null}</td>
                <td>{d.attempts}</td>
                <td>{d.last_status_code ?? '—'}</td>
                <td>{d.last_duration_ms === null ? '—' : `${d.last_duration_ms} ms`}</td>
                <td>{d.last_response ? <pre class="response">{d.last_response}</pre> : '—'}</td>
                <td>{when(d.next_attempt_at)}</td>
                <td><button type="button" onClick={() => redeliver(d)} aria-label={`Redeliver ${d.event} of ${when(d.created_at)}`}>Redeliver</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore list={log} what="deliveries" empty="No deliveries yet." />
    </div>
  );
}
