// Load at a fixed number of connections for a few seconds (autocannon, in this process): requests per
// second, latency and, when the target can tell, the serving process's CPU per request. Shared by the
// peers benchmark (cache hits) and the rollups benchmark (rollup hits beside Cube's pre-aggregations).
import autocannon from 'autocannon';

export interface LoadTarget {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** CPU microseconds the serving process has used so far; undefined when it cannot be read. */
  cpu(): Promise<number | undefined>;
}

export interface LoadRound {
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerHit: number | undefined;
  requests: number;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * One round; throws on any non-2xx answer or socket error (a measured round is of answers only).
 * `workers`: autocannon's own threads, for a server in this process (its event loop then serves only).
 */
export async function loadRound(target: LoadTarget, connections: number, seconds: number, workers?: number): Promise<LoadRound> {
  const before = await target.cpu();
  const result = await autocannon({ url: target.url, method: 'POST', headers: target.headers, body: target.body, connections, duration: seconds, ...(workers ? { workers } : {}) });
  const after = await target.cpu();
  if (result.non2xx || result.errors) throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const hits = result.requests.total;
  const cpuUsPerHit = before !== undefined && after !== undefined && hits ? (after - before) / hits : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUsPerHit, requests: hits };
}

/** The rounds' medians (CPU only when every round could read it). */
export function medianRound(list: readonly LoadRound[]): LoadRound {
  return {
    rps: median(list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    cpuUsPerHit: list.every((r) => r.cpuUsPerHit !== undefined) ? median(list.map((r) => r.cpuUsPerHit!)) : undefined,
    requests: list.reduce((sum, r) => sum + r.requests, 0),
  };
}

/**
 * Every target loaded once a round, `rounds` times, the order rotating from round to round (so that a
 * slow moment of a shared machine falls on each alike); each target's median round.
 */
export async function interleavedLoad<K extends string>(
  targets: Record<K, LoadTarget>,
  options: { rounds: number; seconds: number; connections: number; workers?: number },
): Promise<Record<K, LoadRound & { rounds: LoadRound[] }>> {
  const names = Object.keys(targets) as K[];
  const rounds = Object.fromEntries(names.map((n) => [n, [] as LoadRound[]])) as Record<K, LoadRound[]>;
  for (let round = 0; round < options.rounds; round++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + round) % names.length]!;
      rounds[name].push(await loadRound(targets[name], options.connections, options.seconds, options.workers));
    }
  }
  return Object.fromEntries(names.map((name) => [name, { ...medianRound(rounds[name]), rounds: rounds[name] }])) as Record<K, LoadRound & { rounds: LoadRound[] }>;
}
