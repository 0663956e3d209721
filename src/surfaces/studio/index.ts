// Surface D, mounted at /api/studio: the SQL editor's backend. Console session, tracer role or above.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { compareSchema, filtersSchema, perSchema, shareSchema, sortSchema } from '../../core/semantic/query.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import type { GovernedStatement } from '../../querying/governed-query.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { resultRowsSchema } from '../../http/schemas.js';
import type { RawSqlResult } from '../../querying/raw-sql-service.js';
import type { Services } from '../../services.js';
import { historyPage, historyPageQuery, historySourceQuery, sourcesOf } from '../history-page.js';
import { presentRunWithSql, runWithSqlSchema } from '../history-runnable.js';
import type { RollupReport } from '../../querying/rollup-route.js';
import { comparisonAnswerSchema, comparisonOf, presentColumn, resultColumnSchema, rollupAnswerSchema, rollupOf } from '../structured/query-routes.js';
import { cmlRequest } from './cml-request.js';
import { csvRoute } from './csv-route.js';
import { editorRunRequest } from './editor-run.js';
import { STUDIO_MAX_ROWS } from './studio-limits.js';

export { STUDIO_MAX_ROWS };
const DEFAULT_ROWS = 1000;

const policy = { config: SURFACE_POLICY.studio };
const tags = ['D. studio'];
const column = z.object({ name: z.string(), type: z.string() });
const connectionItem = z.object({ id: z.string(), name: z.string(), engine: z.string(), settings: z.record(z.string(), z.unknown()) });
/** The answer of a raw SQL run (the MCP `run_sql` tool answers it too). */
export const runResult = z.object({
  rows: resultRowsSchema,
  columns: z.array(column),
  duration_ms: z.number().int(),
  row_count: z.number().int(),
  truncated: z.boolean(),
  connection: z.string(),
});

/** A raw SQL run as the editor (and the MCP `run_sql` tool) answers it. */
export function presentRun(result: RawSqlResult): z.infer<typeof runResult> {
  return {
    rows: [...result.rows],
    columns: [...result.columns],
    duration_ms: result.durationMs,
    row_count: result.rowCount,
    truncated: result.truncated,
    connection: result.connection.name,
  };
}

/** A raw SQL run's body: the connection by name, one read-only statement, a row limit. */
export const editorQueryBodySchema = z
  .object({
    connection: z.string().min(1).max(100),
    sql: z.string().min(1).max(100_000),
    limit: z.number().int().min(1).max(STUDIO_MAX_ROWS).default(DEFAULT_ROWS),
  })
  .strict();

export const studioSurface: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  await app.register(csvRoute, { services });

  app.get(
    '/connections',
    { ...policy, schema: { tags, operationId: 'listEditorConnections', summary: 'Connections the editor can query', response: { 200: z.object({ connections: z.array(connectionItem) }) } } },
    async (request) => {
      const list = await services.connections.list(request.principal!.workspace.id);
      return { connections: list.map((c) => ({ id: c.id, name: c.name, engine: c.engine, settings: c.settings })) };
    },
  );

  app.get(
    '/connections/:name/schema',
    {
      ...policy,
      schema: {
        tags,
        operationId: 'getConnectionSchema',
        summary: 'Schemas, tables and typed columns of a connection (cached for a minute)',
        errors: { 404: 'No such connection in your workspace (`unknown_connection`)', ...WAREHOUSE_ERRORS },
        params: z.object({ name: z.string().min(1).max(100) }),
        response: {
          200: z.object({
            connection: z.string(),
            tables: z.array(z.object({ schema: z.string(), name: z.string(), columns: z.array(column) })),
          }),
        },
      },
    },
    async (request) => {
      const { connection, warehouse } = await services.connections.warehouse(request.principal!.workspace.id, request.params.name);
      const tables = await services.schemas.tablesOf(connection, warehouse);
      return { connection: connection.name, tables: tables.map((t) => ({ schema: t.schema, name: t.name, columns: [...t.columns] })) };
    },
  );

  app.post(
    '/query',
    {
      // A statement with NUL reaches the read-only guard, which refuses it and records it in the history.
      config: { ...SURFACE_POLICY.studio, rawTextFields: ['sql'] },
      schema: {
        tags,
        operationId: 'runEditorQuery',
        summary: `Runs one read-only statement (SELECT, WITH or EXPLAIN); at most ${STUDIO_MAX_ROWS.toLocaleString('en-US')} rows`,
        errors: {
          400: 'Also: a statement the read-only guard refuses (`read_only_violation`, with `reason`) or the engine rejects (`warehouse_query_failed`)',
          404: 'No such connection in your workspace (`unknown_connection`)',
          ...WAREHOUSE_ERRORS,
        },
        body: editorQueryBodySchema,
        response: { 200: runResult },
      },
    },
    async (request) => presentRun(await services.rawSql.run(editorRunRequest(request.principal!, request.body))),
  );

  app.post(
    '/query/cml',
    {
      ...policy,
      schema: {
        tags,
        operationId: 'runRevealQuery',
        summary: "Builds SQL from a reveal's metrics and nodes (with your data keys) and runs it unless run is false; compare, shares and per as in POST /v1/query, of metrics",
        errors: {
          400:
            'Also: an unknown metric, field, operator or granularity (the message names it), and/or groups nested too deep, a compare, share or ratio that does not fit ' +
            'the query or names a metric computed from other metrics (`invalid_compare`, `invalid_share`), or an engine error',
          404: 'No such reveal in your workspace, or one outside `domain` (`unknown_reveal`)',
          ...WAREHOUSE_ERRORS,
        },
        body: z
          .object({
            domain: z.string().min(1).optional(),
            reveal: z.string().min(1),
            dimensions: z.array(z.string().min(1)).max(50).default([]),
            measures: z.array(z.string().min(1)).max(50).default([]),
            filters: filtersSchema.default([]),
            sorts: z.array(sortSchema).max(20).default([]),
            limit: z.number().int().min(1).max(STUDIO_MAX_ROWS).default(DEFAULT_ROWS),
            timezone: z.string().min(1).max(64).optional(),
            compare: compareSchema.optional(),
            shares: z.array(shareSchema).max(50).optional().describe('shares of metrics, by metric name'),
            per: z.array(perSchema).max(50).optional().describe('ratios of metrics, by metric name'),
            run: z.boolean().default(true),
          })
          .strict(),
        response: {
          200: z.object({
            reveal: z.string(),
            domain: z.string(),
            base: z.string().describe("the reveal's base node: dimensions, filters and the compared dimension are its fields"),
            time: z.string().nullable().describe("the reveal's time dimension, as a field of its base node"),
            connection: z.string(),
            sql: z.string(),
            params: z.array(z.unknown()),
            columns: z.array(resultColumnSchema).describe('every key of the rows, metrics by their names'),
            comparison: comparisonAnswerSchema.optional().describe('with compare: the periods compared'),
            rollup: rollupAnswerSchema.optional().describe("as C's metadata.rollup, for a reveal whose base node has rollups: the rollup that answered (with run false: would answer now), or why none did"),
            result: runResult.omit({ connection: true }).nullable(),
          }),
        },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const body = request.body;
      const asked = await cmlRequest(services, principal, {
        reveal: body.reveal, domain: body.domain, metrics: body.measures, dimensions: body.dimensions, filters: body.filters, sorts: body.sorts, limit: body.limit, timezone: body.timezone,
        compare: body.compare, shares: body.shares, per: body.per,
      });
      // The editor shows what the warehouse says now: never a cached result.
      const governed = { principal, live: asked.live, query: asked.query, cache: 'off' as const, maxRows: body.limit };
      const present = (statement: GovernedStatement & { rollup?: RollupReport }) => ({
        reveal: asked.reveal.name,
        domain: asked.reveal.domain,
        base: asked.reveal.base,
        time: asked.time,
        connection: statement.connection,
        sql: statement.sql,
        params: [...statement.params],
        columns: statement.outputColumns.map((c) => presentColumn(asked.column(c))),
        ...(statement.comparison ? { comparison: comparisonOf(statement.comparison) } : {}),
        ...(statement.rollup ? { rollup: rollupOf(statement.rollup) } : {}),
      });
      if (!body.run) return { ...present(await services.governed.explain(governed)), result: null };
      const result = await services.governed.query({ ...governed, surface: 'studio_cml', origin: 'cml' });
      return { ...present(result), result: { rows: result.rows.map(asked.row), columns: [...result.columns], duration_ms: result.durationMs, row_count: result.rowCount, truncated: result.truncated } };
    },
  );

  app.get(
    '/history',
    {
      ...policy,
      schema: {
        tags,
        operationId: 'listQueryHistory',
        summary: 'Your runs, newest first, of every source or of those `source` names; pass next_cursor back as cursor for the next page',
        errors: { 400: 'Also: a cursor that is not a next_cursor of a previous page (`invalid_cursor`)' },
        querystring: historyPageQuery.extend(historySourceQuery.shape).strict(),
        response: { 200: z.object({ runs: z.array(runWithSqlSchema), next_cursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const { limit, cursor, source } = request.query;
      const sources = sourcesOf(source);
      await services.rawSql.flush(); // this instance's runs are written before they are listed
      const page = await services.history.pageForUser(principal.workspace.id, principal.user.id, { limit, cursor, ...(sources ? { sources } : {}) });
      return historyPage(page, presentRunWithSql);
    },
  );
};
