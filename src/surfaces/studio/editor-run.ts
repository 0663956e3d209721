// The editor's run of a statement, as the signed-in member, on a connection of their workspace: the
// request its grid (POST /query) and its CSV export (POST /query/csv) both hand to services.rawSql.
import type { Principal } from '../../identity/principal.js';
import type { RawSqlRequest } from '../../querying/raw-sql-service.js';

export function editorRunRequest(principal: Principal, body: { connection: string; sql: string; limit: number }): RawSqlRequest {
  return {
    workspaceId: principal.workspace.id,
    userId: principal.user.id,
    connection: { name: body.connection },
    sql: body.sql,
    maxRows: body.limit,
    surface: 'studio',
    // Read with the rate limit at admission: the connection's cache needs no Redis trip of its own.
    generations: principal.generations,
  };
}
