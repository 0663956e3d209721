// Cube 0.35 beside the rollups benchmark: started from BENCH_CUBE_DIR (cube-peer.ts's launcher) over the
// benchmark's PostgreSQL table with a pre-aggregation per rollup kept in that database (`external:
// false`, schema prod_pre_aggregations), built before anything is measured; and what tells that Cube
// answers from them:
// - /cubejs-api/v1/sql names the pre-aggregation each query reads (the REST load says so only in
//   development mode, `usedPreAggregations`, which the benchmark does not run in);
// - the pre-aggregation tables are in the database once the loads have built them;
// - PostgreSQL's statistics count the scans of the source table and of those tables while Cube is
//   measured: Cube keeps each answer in its in-memory result cache, in front of the pre-aggregation, and
//   its REST API has no way to turn that off (its `forceNoCache` is internal), so most measured requests
//   read no table at all (the figures say how many did: scans_while_loaded). A variant of each query Cube
//   has not seen before (`uncached`) is timed as well: that one reads the pre-aggregation table.
// Cube's rows come with numbers as strings and times as `YYYY-MM-DDTHH:mm:ss.SSS`: `sameRows` compares
// them with ours as numbers and instants.
import pg from 'pg';
import { cubeClient, type CubeLoad } from './cube-load.js';
import { startCube, type CubePeer } from './cube-peer.js';
import { cubeOrdersModel, type DashboardQuery } from './rollup-facts.js';

export const PRE_AGGREGATION_SCHEMA = 'prod_pre_aggregations';

export const CUBE_CACHE_NOTE =
  "Cube's in-memory result cache answers a repeated query in front of its pre-aggregation (as it does in production); its REST API cannot turn it off (forceNoCache is internal to its SQL API), so cube_rps and cube_p50_ms are Cube's pre-aggregation queries as served from that cache once warm; cube_uncached_p50_ms is the same question made new to Cube each time (a filter excluding a value that never occurs, or another row limit), which reads the pre-aggregation table; cube.scans_while_loaded counts the scans of the source table and of the pre-aggregation tables PostgreSQL saw while both sides were loaded";

export interface RollupsCube {
  readonly client: CubeLoad;
  readonly version: string | null;
  close(): void;
}

/** Cube over `table` of the database at `databaseUrl`, building pre-aggregations on demand (no refresh worker). */
export async function startRollupsCube(cubeDir: string, databaseUrl: string, table: string, port: number): Promise<RollupsCube> {
  const peer: CubePeer = await startCube(cubeDir, new URL(databaseUrl), port, cubeOrdersModel(table), {
    // This instance builds a pre-aggregation the first time a query needs it (an API instance otherwise
    // refuses, expecting a refresh worker); the loads before measuring build every one.
    CUBEJS_PRE_AGGREGATIONS_BUILDER: 'true',
    CUBEJS_PRE_AGGREGATIONS_SCHEMA: PRE_AGGREGATION_SCHEMA,
  });
  return { client: cubeClient(peer.url, peer.token), version: peer.version, close: () => peer.close() };
}

/** The pre-aggregations Cube plans for `query` (ids such as `orders.monthly`), from /cubejs-api/v1/sql. */
export async function plannedPreAggregations(cube: CubeLoad, query: Record<string, unknown>): Promise<string[]> {
  const response = await fetch(`${cube.url}/cubejs-api/v1/sql?query=${encodeURIComponent(JSON.stringify(query))}`, { headers: { authorization: cube.token } });
  const body = (await response.json()) as { sql?: { preAggregations?: Array<{ preAggregationId: string }> }; error?: string };
  if (response.status !== 200 || !body.sql) throw new Error(`Cube /sql ${response.status}: ${body.error ?? 'no sql'}`);
  return (body.sql.preAggregations ?? []).map((p) => p.preAggregationId);
}

/** Tables of Cube's pre-aggregation schema (one or more per pre-aggregation: versions, partitions). */
export async function preAggregationTables(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1 order by 1', [PRE_AGGREGATION_SCHEMA]);
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

export interface TableScans {
  /** Sequential and index scans of the source table. */
  readonly source: number;
  /** Of every pre-aggregation table together. */
  readonly preAggregations: number;
}

/** Scans so far, as the database's statistics have them (an idle backend reports at least every 10 s). */
export async function tableScans(databaseUrl: string, sourceTable: string): Promise<TableScans> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string; name: string; scans: string }>(
      "select schemaname as schema, relname as name, (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as scans from pg_stat_user_tables where schemaname in ('public', $1)",
      [PRE_AGGREGATION_SCHEMA],
    );
    const [schema, name] = sourceTable.split('.');
    const sum = (list: typeof rows) => list.reduce((total, r) => total + Number(r.scans), 0);
    return { source: sum(rows.filter((r) => r.schema === schema && r.name === name)), preAggregations: sum(rows.filter((r) => r.schema === PRE_AGGREGATION_SCHEMA)) };
  } finally {
    await client.end();
  }
}

export interface CubeRun {
  readonly client: CubeLoad;
  readonly started: RollupsCube | undefined;
  /** Per dashboard query: the pre-aggregation that answers it (planned by /v1/sql and built), and Cube's rows. */
  readonly answers: Map<string, { preAggregation: string | null; data: Array<Record<string, unknown>>; uncachedSame: boolean }>;
  readonly tables: string[];
  readonly buildSeconds: number;
}

/** Loads every dashboard query once (which builds its pre-aggregation), then asks which each reads. */
export async function warmCube(client: CubeLoad, started: RollupsCube | undefined, databaseUrl: string, dashboard: readonly DashboardQuery[], notes: string[]): Promise<CubeRun> {
  const began = performance.now();
  const loaded = new Map<string, Array<Record<string, unknown>>>();
  for (const { name, cube } of dashboard) loaded.set(name, (await client.load(cube)).data);
  const buildSeconds = (performance.now() - began) / 1000;
  const tables = await preAggregationTables(databaseUrl);
  const answers: CubeRun['answers'] = new Map();
  for (const { name, cube } of dashboard) {
    const planned = await plannedPreAggregations(client, cube);
    // A pre-aggregation `orders.monthly` is stored as orders_monthly (whole) or orders_monthly<partition>, each with version suffixes.
    const built = planned.find((id) => tables.some((table) => table.startsWith(`${id.replace('.', '_')}`)));
    if (!built) notes.push(`postgres ${name}: Cube plans ${planned.length > 0 ? `${planned.join(', ')}, not built` : 'no pre-aggregation'} (tables: ${tables.join(', ') || 'none'})`);
    // The variant past the result cache must be the same question on the same pre-aggregation.
    const variant = uncached(cube, 0);
    const sameVariant = JSON.stringify(await plannedPreAggregations(client, variant)) === JSON.stringify(planned) && JSON.stringify((await client.load(variant)).data) === JSON.stringify(loaded.get(name));
    if (!sameVariant) notes.push(`postgres ${name}: Cube's query past its result cache plans or answers otherwise; cube_uncached_p50_ms is null`);
    answers.set(name, { preAggregation: built ?? null, data: loaded.get(name)!, uncachedSame: sameVariant });
  }
  return { client, started, answers, tables, buildSeconds };
}

/**
 * The same question as `query`, but a query Cube has not answered before (the `n`-th such): a filter
 * excluding a value that never occurs on the query's first dimension, else a row limit above its rows,
 * both fields the pre-aggregation holds, so Cube reads its pre-aggregation table instead of its result
 * cache. Same rows; the same pre-aggregation (checked against /v1/sql before it is timed).
 */
export function uncached(query: Record<string, unknown>, n: number): Record<string, unknown> {
  const dimensions = (query.dimensions as string[] | undefined) ?? [];
  if (dimensions.length > 0) {
    const filters = (query.filters as unknown[] | undefined) ?? [];
    return { ...query, filters: [...filters, { member: dimensions[0], operator: 'notEquals', values: [`~never ${n}`] }] };
  }
  if (query.limit !== undefined) throw new Error('a query without dimensions has no limit to vary');
  return { ...query, limit: 10_000 - (n % 5_000) };
}

/** A value as a comparable text: numbers (Cube sends them as strings) by value, times as instants. */
function normalised(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return `n:${value}`;
  const text = String(value);
  if (/^-?\d+(\.\d+)?$/.test(text)) return `n:${Number(text)}`;
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text)) {
    const iso = text.replace(' ', 'T');
    return `t:${new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? iso : `${iso}Z`).toISOString()}`;
  }
  return `s:${text}`;
}

/** Whether Cube's rows are ours, in the same order, field by field (ours `region`, Cube's `orders.region`). */
export function sameRows(ours: ReadonlyArray<Record<string, unknown>>, cubes: ReadonlyArray<Record<string, unknown>>, query: DashboardQuery): boolean {
  const fields = [...(query.query.dimensions ?? []), ...(query.query.measures ?? [])];
  if (ours.length === 0 || ours.length !== cubes.length) return false;
  return ours.every((row, i) => fields.every((field) => normalised(row[field]) === normalised(cubes[i]![`orders.${field}`])));
}
