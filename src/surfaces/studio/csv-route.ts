// POST /api/studio/query/csv: the editor's statement again, as a CSV file of the whole result. The run
// is the editor's own (services.rawSql: the read-only guard, the time limit, the history, the
// workspace's own connection), but streamed: the driver reads the rows in batches and each batch is
// written to the answer before the next is read (the driver waits while the client is slow), so the
// export's cap (config.csvExportMaxRows, a million rows by default) bounds the file, not the memory.
//
// How the file says whether it is whole. The headers go out with the first line, before the rows are
// read, so the row count and whether the cap cut the result are sent after the rows as HTTP trailers
// (X-Row-Count, X-Result-Truncated, announced in `Trailer`); a last line would be read as data by
// every CSV reader. X-Row-Limit, a header, gives the cap up front, for clients that cannot read
// trailers (browsers' fetch): a file with fewer rows than that was not cut. A run that fails once rows
// have gone out cannot turn into a 4xx any more: the connection is then cut (no last chunk, no
// trailers), so the client sees a broken transfer rather than a file that looks complete; the history
// records the failure. A run that fails before its first line answers the editor's JSON errors.
// The client closing the connection cancels the run: the statement is stopped on the warehouse and its
// connection released.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StreamSummary } from '../../core/warehouse/types.js';
import { WAREHOUSE_ERRORS } from '../../http/openapi-operations.js';
import { SURFACE_POLICY } from '../../http/route-policy.js';
import { csvHeader, csvLines } from '../../querying/csv-rows.js';
import type { Services } from '../../services.js';
import { CsvBody } from './csv-body.js';
import { editorRunRequest } from './editor-run.js';

/** A file name the connection's name cannot break out of (quotes, slashes, non-ASCII). */
export function csvFileName(connection: string): string {
  const safe = connection.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'result';
  return `${safe}-result.csv`;
}

export const csvRoute: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const maxRows = services.config.csvExportMaxRows;
  app.post(
    '/query/csv',
    {
      config: { ...SURFACE_POLICY.studio, rawTextFields: ['sql'] },
      schema: {
        tags: ['D. studio'],
        operationId: 'exportEditorQueryCsv',
        summary:
          `Runs one read-only statement as POST /query does and streams its rows as CSV (RFC 4180, UTF-8, a header row, text cells that a spreadsheet would read as a formula prefixed with '); at most ${maxRows.toLocaleString('en-US')} rows (SVC_CSV_EXPORT_MAX_ROWS). ` +
          'X-Row-Limit (header): the cap; X-Row-Count and X-Result-Truncated (HTTP trailers, after the rows): the rows in the file and whether the cap cut the result. A run failing once rows were sent cuts the connection',
        errors: {
          400: 'Also: a statement the read-only guard refuses (`read_only_violation`, with `reason`) or the engine rejects (`warehouse_query_failed`)',
          404: 'No such connection in your workspace (`unknown_connection`)',
          ...WAREHOUSE_ERRORS,
        },
        body: z
          .object({
            connection: z.string().min(1).max(100),
            sql: z.string().min(1).max(100_000),
            limit: z.number().int().min(1).max(maxRows).default(maxRows),
          })
          .strict(),
      },
    },
    async (request, reply) => {
      const cancel = new AbortController();
      // Closed before the last byte went out: the client left, and the run stops.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) cancel.abort();
      });
      const body = new CsvBody();
      let begun!: () => void;
      const columnsKnown = new Promise<void>((resolve) => (begun = resolve));
      let summary: StreamSummary | undefined;
      const run = services.rawSql.stream(
        { ...editorRunRequest(request.principal!, request.body), origin: 'csv', signal: cancel.signal },
        {
          columns: (columns) => {
            begun();
            return body.write(csvHeader(columns));
          },
          rows: (batch) => body.write(csvLines(batch)),
        },
      );
      const done = run.then(
        (result) => {
          summary = result;
          body.push(null);
        },
        (error: unknown) => {
          body.destroy(error instanceof Error ? error : new Error(String(error)));
          throw error;
        },
      );
      // Until the first line, a failure is the editor's JSON error; after it, the body's.
      await Promise.race([columnsKnown, done]);
      done.catch(() => undefined);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvFileName(request.body.connection)}"`)
        .header('x-row-limit', String(request.body.limit))
        .header('cache-control', 'no-store')
        .trailer('x-row-count', async () => String(summary?.rowCount ?? 0))
        .trailer('x-result-truncated', async () => String(summary?.truncated ?? false))
        .send(body);
    },
  );
};
