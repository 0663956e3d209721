// POST /api/studio/query/csv: the editor's statement again, as a CSV file of the whole result. The run
// is the editor's own (services.rawSql: the read-only guard, the time limit, the history), capped at
// the editor's row cap; the rows are streamed out a chunk at a time (see csv-rows.ts). The drivers read
// a capped result, so at most STUDIO_MAX_ROWS rows are held while the file is written. Whether the cap
// cut the result is said in headers (a CSV file has no place for it that a spreadsheet would not read
// as data): X-Result-Truncated and X-Row-Count.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { csvChunks } from '../../querying/csv-rows.js';
import type { Services } from '../../services.js';
import { STUDIO_MAX_ROWS as CSV_MAX_ROWS } from './studio-limits.js';

/** A file name the connection's name cannot break out of (quotes, slashes, non-ASCII). */
export function csvFileName(connection: string): string {
  const safe = connection.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'result';
  return `${safe}-result.csv`;
}

export const csvRoute: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  app.post(
    '/query/csv',
    {
      config: { ...SURFACE_POLICY.studio, rawTextFields: ['sql'] },
      schema: {
        tags: ['D. studio'],
        operationId: 'exportEditorQueryCsv',
        summary:
          `Runs one read-only statement as POST /query does and answers its rows as CSV (RFC 4180, UTF-8, a header row); at most ${CSV_MAX_ROWS.toLocaleString('en-US')} rows. ` +
          'X-Result-Truncated: true when the cap cut the result; X-Row-Count: the rows in the file',
        errors: {
          400: 'Also: a statement the read-only guard refuses (`read_only_violation`, with `reason`) or the engine rejects (`warehouse_query_failed`)',
          404: 'No such connection in your workspace (`unknown_connection`)',
          ...WAREHOUSE_ERRORS,
        },
        body: z
          .object({
            connection: z.string().min(1).max(100),
            sql: z.string().min(1).max(100_000),
            limit: z.number().int().min(1).max(CSV_MAX_ROWS).default(CSV_MAX_ROWS),
          })
          .strict(),
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const result = await services.rawSql.run({
        workspaceId: principal.workspace.id,
        userId: principal.user.id,
        connection: { name: request.body.connection },
        sql: request.body.sql,
        maxRows: request.body.limit,
        surface: 'studio',
        origin: 'csv',
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName(result.connection.name)}"`)
        .header('x-result-truncated', String(result.truncated))
        .header('x-row-count', String(result.rowCount))
        .header('cache-control', 'no-store')
        .send(Readable.from(csvChunks(result.columns, result.rows)));
    },
  );
};
