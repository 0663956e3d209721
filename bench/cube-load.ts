// Cube's REST load (/cubejs-api/v1/load), for the rollups benchmark's Cube columns: a Cube the benchmark
// started itself (cube-rollups.ts), or one at CUBE_URL that someone started by hand with a cube `orders`
// and its pre-aggregations over the benchmark's PostgreSQL table (docs/operations.md, "Benchmarks:
// rollups"), authorised by CUBE_TOKEN, or by an HS256 token signed here with CUBE_API_SECRET.
import { signToken } from './cube-peer.js';

/** What Cube answered: its rows (numbers as strings), and the pre-aggregations it read them from. */
export interface CubeAnswer {
  readonly data: Array<Record<string, unknown>>;
  /** Keyed by the pre-aggregation's table (`<schema>.<cube>_<name>`); empty when the source answered. */
  readonly usedPreAggregations: Record<string, unknown>;
}

export interface CubeLoad {
  readonly url: string;
  /** The Authorization header's value. */
  readonly token: string;
  load(query: Record<string, unknown>): Promise<CubeAnswer>;
}

/** Cube's client at `url`. */
export function cubeClient(url: string, token: string): CubeLoad {
  const base = url.replace(/\/+$/, '');
  return {
    url: base,
    token,
    async load(query) {
      // Cube answers "Continue wait" while a pre-aggregation or query is still running: ask again.
      for (let attempt = 0; attempt < 600; attempt++) {
        const response = await fetch(`${base}/cubejs-api/v1/load`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        const body = (await response.json()) as { error?: string; data?: CubeAnswer['data']; usedPreAggregations?: Record<string, unknown> };
        if (body.error === 'Continue wait') continue;
        if (response.status !== 200 || !body.data) throw new Error(`Cube ${response.status}: ${body.error ?? 'no data'}`);
        return { data: body.data, usedPreAggregations: body.usedPreAggregations ?? {} };
      }
      throw new Error('Cube kept answering "Continue wait"');
    },
  };
}

/** Cube's client at CUBE_URL; undefined when it is unset. */
export function cubeFromEnv(env: NodeJS.ProcessEnv = process.env): CubeLoad | undefined {
  const url = env.CUBE_URL;
  if (!url) return undefined;
  return cubeClient(url, env.CUBE_TOKEN ?? (env.CUBE_API_SECRET ? signToken(env.CUBE_API_SECRET) : ''));
}
