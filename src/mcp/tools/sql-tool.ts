// Read-only SQL on a connection, through the same guard as the SQL editor (surface D): one SELECT, WITH
// or EXPLAIN statement. Raw SQL bypasses data keys, so it needs the `sql` scope and the tracer role.
import { z } from 'zod';
import { RAW_SQL_ROLE } from '../../identity/roles.js';
import { editorQueryBodySchema, presentRun, runResult } from '../../surfaces/studio/index.js';
import { AGENT_ROWS, defineTool } from '../tool.js';

export const runSql = defineTool({
  name: 'run_sql',
  title: 'Run read-only SQL',
  description: `Read-only SQL (SELECT, WITH, EXPLAIN) on a connection; not governed: use query first. Limit default ${AGENT_ROWS.default}.`,
  needs: { scope: 'sql', role: RAW_SQL_ROLE },
  input: editorQueryBodySchema.extend({ limit: z.number().int().min(1).max(AGENT_ROWS.max).default(AGENT_ROWS.default) }),
  output: runResult,
  async run({ services, principal }, { connection, sql, limit }) {
    const result = await services.rawSql.run({ workspaceId: principal.workspace.id, userId: principal.user.id, connection: { name: connection }, sql, maxRows: limit, surface: 'mcp' });
    const answer = presentRun(result);
    return { structured: answer, text: `${answer.row_count} rows${answer.truncated ? ' (truncated)' : ''} from ${answer.connection}\n${answer.rows.slice(0, 5).map((r) => JSON.stringify(r)).join('\n')}` };
  },
});
