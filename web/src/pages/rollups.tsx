// Rollups (editors and above): each rollup of the deployed model with its build state, rows, last build,
// next refresh, how often it answered queries (hit rate) and its last error; luminaries can build one
// now (its partitions become due; the build loop builds them). With no rollups, what a rollup is.
import { useState } from 'preact/hooks';
import { get, post } from '../api';
import { ErrorBox, Loading, Notice } from '../components/feedback';
import { useAction, useLoad } from '../components/use-load';
import { onLinkClick } from '../router';
import type { Me } from '../session';

interface Rollup {
  node: string;
  name: string;
  state: 'pending' | 'building' | 'ready' | 'failed';
  partitions_built: number;
  partitions_total: number;
  rows: number;
  last_built_at: string | null;
  last_build_ms: number | null;
  next_refresh_at: string | null;
  build_due: boolean;
  last_error: string | null;
  hits: number;
  misses: number;
  miss_reasons: Record<string, number>;
}

interface Listing { rollups: Rollup[]; file_bytes: number | null }

const STATUS_CLASS: Record<Rollup['state'], string> = { ready: 'ok', building: 'muted', pending: 'muted', failed: 'error' };

function when(at: string | null, none: string): string {
  return at ? new Date(at).toLocaleString() : none;
}

function bytes(size: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

function hitRate(rollup: Rollup): string {
  const total = rollup.hits + rollup.misses;
  if (total === 0) return 'no queries yet';
  const reasons = Object.entries(rollup.miss_reasons).map(([code, count]) => `${code} ${count}`).join(', ');
  return `${Math.round((rollup.hits / total) * 100)}% (${rollup.hits} of ${total})${reasons ? `; missed: ${reasons}` : ''}`;
}

function EmptyState() {
  return (
    <div class="panel">
      <p>No rollups in the deployed model.</p>
      <p>
        A rollup is a node's measures aggregated ahead of time by a few dimensions (and a time grain), stored by the service and kept
        fresh by builds. A query a rollup can answer is answered from it, faster and without reading the source; the answer says so in
        its metadata. Declare one with a <code>rollup</code> block in a node's CML and deploy the model: see{' '}
        <a href="/glossary" onClick={(e) => onLinkClick(e, '/glossary')}>rollup in the glossary</a> and the CML reference (docs/cml.md).
      </p>
    </div>
  );
}

export function RollupsPage({ me }: { me: Me }) {
  const list = useLoad(() => get<Listing>('/api/rollups'));
  const [notice, setNotice] = useState('');
  const { error, run } = useAction();
  const builds = me.role === 'luminary';
  const buildNow = (rollup: Rollup) =>
    run(async () => {
      await post(`/api/rollups/${encodeURIComponent(rollup.node)}/${encodeURIComponent(rollup.name)}/build`);
      await list.reload();
      setNotice(`A build of ${rollup.node}.${rollup.name} is queued: it starts at the build loop's next poll.`);
    });
  const rollups = list.data?.rollups ?? [];
  return (
    <div>
      <h1>Rollups</h1>
      <ErrorBox error={error} />
      {notice ? <Notice>{notice}</Notice> : null}
      {list.loading && !list.data ? <Loading what="rollups" /> : null}
      <ErrorBox error={list.error} />
      {list.data && rollups.length === 0 ? <EmptyState /> : null}
      {rollups.length > 0 ? (
        <>
          <p class="muted">
            {list.data?.file_bytes != null ? `The workspace's rollup file holds ${bytes(list.data.file_bytes)} on disk (every rollup together). ` : 'Nothing built yet. '}
            Hit rate: the share of queries of a rollup's node that it answered.
          </p>
          <div class="table-wrap">
            <table>
              <caption class="sr-only">Rollups of the deployed model</caption>
              <thead>
                <tr>
                  <th scope="col">Rollup</th><th scope="col">State</th><th scope="col">Rows</th><th scope="col">Last build</th>
                  <th scope="col">Next refresh</th><th scope="col">Hit rate</th><th scope="col">Last error</th>
                  {builds ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {rollups.map((r) => (
                  <tr key={`${r.node}.${r.name}`}>
                    <th scope="row"><code>{r.node}.{r.name}</code></th>
                    <td><span class={`status ${STATUS_CLASS[r.state]}`}>{r.state}</span></td>
                    <td>{r.rows.toLocaleString()} <span class="muted">({r.partitions_built} of {r.partitions_total} partitions)</span></td>
                    <td>{when(r.last_built_at, 'never')}{r.last_build_ms !== null ? <span class="muted"> ({(r.last_build_ms / 1000).toFixed(1)} s)</span> : null}</td>
                    <td>{r.build_due ? 'queued: builds at the next poll' : when(r.next_refresh_at, 'none planned')}</td>
                    <td>{hitRate(r)}</td>
                    <td>{r.last_error ?? <span class="muted">none</span>}</td>
                    {builds ? (
                      <td><button type="button" onClick={() => buildNow(r)} aria-label={`Build ${r.node}.${r.name} now`}>Build now</button></td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </div>
  );
}
