// Cube's REST load (/cubejs-api/v1/load) at CUBE_URL, for the rollups benchmark's Cube column. Cube is
// not started here: it runs elsewhere, with a cube `orders` and its pre-aggregations over the benchmark's
// PostgreSQL table (docs/operations.md, "Benchmarks: rollups"). Authorised by CUBE_TOKEN, or by an HS256
// token signed here with CUBE_API_SECRET.
import { signToken } from './cube-peer.js';

export interface CubeLoad {
  readonly url: string;
  load(query: Record<string, unknown>): Promise<unknown[]>;
}

/** Cube's client at CUBE_URL; undefined when it is unset. */
export function cubeFromEnv(env: NodeJS.ProcessEnv = process.env): CubeLoad | undefined {
  const url = env.CUBE_URL?.replace(/\/+$/, '');
  if (!url) return undefined;
  const token = env.CUBE_TOKEN ?? (env.CUBE_API_SECRET ? signToken(env.CUBE_API_SECRET) : '');
  return {
    url,
    async load(query) {
      // Cube answers "Continue wait" while a pre-aggregation or query is still running: ask again.
      for (let attempt = 0; attempt < 600; attempt++) {
        const response = await fetch(`${url}/cubejs-api/v1/load`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        const body = (await response.json()) as { error?: string; data?: unknown[] };
        if (body.error === 'Continue wait') continue;
        if (response.status !== 200 || !body.data) throw new Error(`Cube ${response.status}: ${body.error ?? 'no data'}`);
        return body.data;
      }
      throw new Error('Cube kept answering "Continue wait"');
    },
  };
}
