// What an MCP tool is here: a name, what it needs (a structured-key scope, sometimes a role), an input
// schema (the REST API's own zod schema where the tool mirrors a route), an output schema, and a run
// that answers structured content with a short text form. Tools never see HTTP or the protocol.
import type { z } from 'zod';
import type { Principal } from '../identity/principal.js';
import type { StructuredScope } from '../identity/scopes.js';
import type { Services } from '../services.js';
import type { Role } from '../store/schema.js';

/** Rows an agent gets from one call: a context window is no place for fifty thousand rows. */
export const AGENT_ROWS = { default: 500, max: 5000 } as const;

export interface ToolCall {
  readonly services: Services;
  readonly principal: Principal;
}

export interface ToolAnswer<T> {
  readonly structured: T;
  /** A line or two an agent (or a person reading the transcript) can take in at a glance. */
  readonly text: string;
}

export interface ToolNeeds {
  readonly scope: StructuredScope;
  readonly role?: Role;
}

export interface Tool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly needs: ToolNeeds;
  readonly input: I;
  readonly output: O;
  /**
   * The input schema tools/list shows, when it is another tool's input: said in a sentence rather than
   * listed twice (every listed token is read by every agent). The call is still checked against `input`.
   */
  readonly sameInputAs?: string;
  run(call: ToolCall, args: z.output<I>): Promise<ToolAnswer<z.output<O>>>;
}

/** Keeps a tool's input and output types tied to its schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(tool: Tool<I, O>): Tool<I, O> {
  return tool;
}

/** The first `limit` rows, and whether the cap cut any off (or may have: the rows filled it). */
export function capRows<T>(rows: readonly T[], limit: number, cutByRun = false): { rows: T[]; truncated: boolean } {
  return { rows: rows.slice(0, limit), truncated: cutByRun || rows.length >= limit };
}
