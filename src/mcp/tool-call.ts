// One tools/call: the tool is looked up (an unknown name is a protocol error), the caller's scopes and
// role are checked (a refusal is a tool error), the arguments are validated by the tool's zod schema
// (malformed arguments are a protocol error, InvalidParams, worded as the REST API words a 400), and the
// run's failures become tool errors carrying the REST API's body: the same message, code and details
// (the did-you-mean of an unknown field is in the message). Every query the call runs is recorded in
// the history as the agent's, with its key.
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../core/errors.js';
import { fieldPath } from '../http/input-guard.js';
import { recordRunsAs } from '../querying/history-context.js';
import type { ToolCatalog } from './tool-catalog.js';
import { refusalOf } from './tool-catalog.js';
import type { ToolCall } from './tool.js';

export interface ToolCallHooks {
  /** An unexpected failure: logged with its stack; the agent gets a generic error. */
  onFailure(error: unknown, tool: string): void;
}

function toolError(body: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

export async function callTool(catalog: ToolCatalog, call: ToolCall, name: string, args: unknown, hooks: ToolCallHooks): Promise<CallToolResult> {
  const tool = catalog.find(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}"`);
  const refusal = refusalOf(call.principal, tool);
  if (refusal) return toolError(refusal);

  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${fieldPath('arguments', issue.path as (string | number)[])}: ${issue.message}`);
    throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${name}: ${problems.join('; ')}`);
  }
  try {
    const answer = await recordRunsAs({ surface: 'mcp', keyId: call.principal.key?.id ?? null }, () => tool.run(call, parsed.data));
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured as Record<string, unknown> };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return toolError({ error: error.message, code: error.code, ...error.details });
    if (error instanceof AppError) return toolError({ error: error.message, code: error.code });
    hooks.onFailure(error, name);
    return toolError({ error: 'Internal server error', code: 'internal' });
  }
}
