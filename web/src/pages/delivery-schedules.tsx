// Scheduled deliveries on the Content page: a form to send a scene or mosaic on a cron to a webhook
// endpoint picked from the workspace's (GET /api/delivery-endpoints: description, host and format), and per schedule: pause or resume, send now, delete (after a confirmation) and its recent
// runs with how their deliveries went (the same rows as the endpoint's delivery log).
import { useState } from 'preact/hooks';
import { api, get, post } from '../api';
import { ErrorBox, Notice } from '../components/feedback';
import { Section, SelectField, TextField } from '../components/field';
import { useAction, useLoad } from '../components/use-load';
import { LoadMore, usePaged } from '../components/use-paged';

interface Schedule {
  id: string; name: string; target: { kind: 'scene' | 'mosaic'; id: string }; endpoint_id: string; cron: string; timezone: string;
  enabled: boolean; next_run_at: string | null; last_run_at: string | null; last_error: string | null; stopped_reason: string | null; updated_at: string;
}
interface Run { id: string; ran_at: string; trigger: string; status: string; error: string | null; delivery: { status: string; attempts: number; last_error: string | null } | null }
interface Named { id: string; name: string }
interface Endpoint { id: string; description: string; host: string; format: string; enabled: boolean }

const endpointLabel = (e: Endpoint) => `${e.description || e.host} (${e.format === 'chat' ? 'chat' : 'signed JSON'}${e.description ? ` · ${e.host}` : ''})${e.enabled ? '' : ' — disabled'}`;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const path = (s: Schedule) => `/api/delivery-schedules/${encodeURIComponent(s.id)}`;

function Runs({ schedule, refreshKey }: { schedule: Schedule; refreshKey: number }) {
  const runs = usePaged<Run>(`${path(schedule)}/runs?limit=10`, 'runs', [refreshKey]);
  return (
    <div>
      <ErrorBox error={runs.error} />
      <table aria-label={`Recent deliveries of ${schedule.name}`}>
        <thead><tr><th scope="col">When</th><th scope="col">Trigger</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col">Error</th></tr></thead>
        <tbody>
          {runs.items.map((r) => (
            <tr key={r.id}>
              <td>{when(r.ran_at)}</td>
              <td>{r.trigger === 'send_now' ? 'sent now' : 'schedule'}</td>
              <td><span class={`status ${r.delivery?.status ?? r.status}`}>{r.delivery?.status ?? r.status}</span></td>
              <td>{r.delivery?.attempts ?? 0}</td>
              <td>{r.error ?? r.delivery?.last_error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore list={runs} what="deliveries" empty="No deliveries yet." />
    </div>
  );
}

function ScheduleRow({ schedule, targetName, endpointName, onChanged }: { schedule: Schedule; targetName: string; endpointName: string; onChanged: (notice: string) => Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const { error, run } = useAction();
  const toggle = () => run(async () => { await post(`${path(schedule)}/${schedule.enabled ? 'pause' : 'resume'}`); await onChanged(`Schedule ${schedule.name} is ${schedule.enabled ? 'paused' : 'resumed'}.`); });
  const sendNow = () => run(async () => {
    const { run: sent } = await post<{ run: Run }>(`${path(schedule)}/send`);
    setRefreshKey(refreshKey + 1);
    await onChanged(sent.status === 'error' ? `Schedule ${schedule.name} could not send: ${sent.error}` : `Schedule ${schedule.name} is queued for delivery.`);
  });
  const remove = () => run(async () => { await api('DELETE', path(schedule)); await onChanged(`Schedule ${schedule.name} is deleted.`); });
  return (
    <li class="panel" aria-label={`Schedule ${schedule.name}`}>
      <strong>{schedule.name}</strong>{' '}
      <span class="muted">{schedule.target.kind} {targetName} · {schedule.cron} ({schedule.timezone}) · to {endpointName}{schedule.enabled ? '' : ' · paused'}</span>
      <p>Next run {when(schedule.next_run_at)} · last run {when(schedule.last_run_at)}</p>
      {schedule.stopped_reason ? <p class="status error" role="status">{schedule.stopped_reason}</p> : schedule.last_error ? <p class="status error" role="status">{schedule.last_error}</p> : null}
      <div class="row">
        <button type="button" onClick={sendNow} aria-label={`Send ${schedule.name} now`}>Send now</button>
        <button type="button" onClick={toggle} aria-label={`${schedule.enabled ? 'Pause' : 'Resume'} ${schedule.name}`}>{schedule.enabled ? 'Pause' : 'Resume'}</button>
        <button type="button" onClick={() => setConfirming(!confirming)} aria-label={`Delete ${schedule.name}`}>Delete</button>
      </div>
      <ErrorBox error={error} />
      {confirming ? (
        <p role="group" aria-label={`Confirm deleting ${schedule.name}`}>
          Delete {schedule.name} and its runs?{' '}
          <button type="button" class="danger" onClick={remove}>Yes, delete</button> <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
        </p>
      ) : null}
      <Runs schedule={schedule} refreshKey={refreshKey} />
    </li>
  );
}

function ScheduleForm({ scenes, mosaics, endpoints, luminary, onSave, onCancel }: { scenes: Named[]; mosaics: Named[]; endpoints: Endpoint[]; luminary: boolean; onSave: (body: unknown) => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [target, setTarget] = useState(scenes[0] ? `scene:${scenes[0].id}` : mosaics[0] ? `mosaic:${mosaics[0].id}` : '');
  const [endpoint, setEndpoint] = useState(endpoints[0]?.id ?? '');
  const [cron, setCron] = useState('0 9 * * 1-5');
  const [timezone, setTimezone] = useState('');
  const { error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const [kind, id] = target.split(':');
    run(() => onSave({ name, target: { kind, id }, endpoint_id: endpoint, cron, ...(timezone ? { timezone } : {}) }));
  };
  const targets = [...scenes.map((s) => ({ value: `scene:${s.id}`, label: `Scene: ${s.name}` })), ...mosaics.map((m) => ({ value: `mosaic:${m.id}`, label: `Mosaic: ${m.name}` }))];
  return (
    <form aria-label="New schedule" onSubmit={submit}>
      <TextField label="Name" value={name} onInput={setName} required />
      <SelectField label="Send" value={target} options={targets} onChange={setTarget} />
      {/* A luminary sees every endpoint: with none yet, the way on is to add one, not to type an id. */}
      {!endpoints.length && luminary ? <p class="status error" role="note">No webhook endpoint yet: add one under Webhooks (below), then create the schedule.</p> : null}
      {endpoints.length ? (
        <SelectField label="To endpoint" value={endpoint} options={endpoints.map((e) => ({ value: e.id, label: endpointLabel(e) }))} onChange={setEndpoint} />
      ) : luminary ? null : (
        <p class="muted" role="note">The workspace has no webhook endpoint yet: a luminary adds one under Webhooks.</p>
      )}
      <TextField label="Cron" value={cron} onInput={setCron} required hint="minute hour day month weekday, e.g. 0 9 * * 1-5 for 09:00 on weekdays" />
      <TextField label="Time zone (optional)" value={timezone} onInput={setTimezone} placeholder="Europe/Berlin" hint="The workspace's zone when empty" />
      <ErrorBox error={error} />
      <div class="row">
        <button type="submit" disabled={!endpoint}>Create schedule</button> <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

export function DeliverySchedules({ luminary }: { luminary: boolean }) {
  const schedules = usePaged<Schedule>('/api/delivery-schedules?limit=50', 'schedules');
  const choices = useLoad(async () => {
    const [scenes, mosaics, endpoints] = await Promise.all([
      get<{ scenes: Named[] }>('/api/scenes?limit=200'),
      get<{ mosaics: Named[] }>('/api/mosaics?limit=200'),
      get<{ endpoints: Endpoint[] }>('/api/delivery-endpoints'),
    ]);
    return { scenes: scenes.scenes, mosaics: mosaics.mosaics, endpoints: endpoints.endpoints };
  });
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  const changed = async (text: string) => { await schedules.reload(); setNotice(text); };
  const create = async (body: unknown) => {
    const { schedule } = await post<{ schedule: Schedule }>('/api/delivery-schedules', body);
    setCreating(false);
    await changed(`Schedule ${schedule.name} is created.`);
  };
  const names = new Map([...(choices.data?.scenes ?? []), ...(choices.data?.mosaics ?? [])].map((n) => [n.id, `"${n.name}"`]));
  const endpointNames = new Map((choices.data?.endpoints ?? []).map((e) => [e.id, endpointLabel(e)]));
  return (
    <Section title="Scheduled deliveries">
      <ErrorBox error={schedules.error ?? choices.error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {creating && choices.data ? (
        <ScheduleForm {...choices.data} luminary={luminary} onSave={create} onCancel={() => setCreating(false)} />
      ) : (
        <button type="button" onClick={() => { choices.reload(); setCreating(true); }}>New schedule</button>
      )}
      <ul class="plain">
        {schedules.items.map((s) => <ScheduleRow key={`${s.id}:${s.updated_at}`} schedule={s} targetName={names.get(s.target.id) ?? s.target.id} endpointName={endpointNames.get(s.endpoint_id) ?? 'its endpoint'} onChanged={changed} />)}
      </ul>
      <LoadMore list={schedules} what="schedules" />
      {!schedules.loading && schedules.items.length === 0 && !schedules.error ? <p class="muted">No scheduled deliveries yet.</p> : null}
    </Section>
  );
}
