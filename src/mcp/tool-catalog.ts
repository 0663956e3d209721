// The tools as tools/list describes them, built once at start: JSON Schema 2020-12 from the zod schemas
// (the REST API's own where a tool mirrors a route). A key sees only the tools its scopes and role
// allow: an agent is not offered what would only refuse it, and a shorter list costs it fewer tokens.
// A hidden tool called by name is refused with a tool error that names the missing scope.
import type { Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { grantedScopes, type Principal } from '../identity/principal.js';
import { roleAtLeast } from '../identity/roles.js';
import { leanInput, leanOutput } from './lean-schema.js';
import type { Tool } from './tool.js';
import { TOOLS } from './tools/index.js';

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  // The dialect is the protocol's default (2020-12): naming it in every schema would only cost tokens.
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function listed(tool: Tool): ListedTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: (tool.sameInputAs
      ? { type: 'object', description: `The arguments of ${tool.sameInputAs}.` }
      : leanInput(jsonSchemaOf(tool.input, 'input'))) as ListedTool['inputSchema'],
    outputSchema: leanOutput(jsonSchemaOf(tool.output, 'output')) as ListedTool['outputSchema'],
    // Every tool reads: nothing here writes to the model, the content or a warehouse.
    annotations: { readOnlyHint: true },
  };
}

/** Why `principal` may not call `tool`, or undefined when it may. */
export function refusalOf(principal: Principal, tool: Tool): { error: string; code: string } | undefined {
  if (!grantedScopes(principal).includes(tool.needs.scope)) {
    return { error: `This key lacks the ${tool.needs.scope} scope, which ${tool.name} needs: create a key with it in the console`, code: 'scope_required' };
  }
  if (tool.needs.role && !roleAtLeast(principal.role, tool.needs.role)) {
    return { error: `${tool.name} needs the ${tool.needs.role} role or above; yours is ${principal.role}`, code: 'role_required' };
  }
  return undefined;
}

export class ToolCatalog {
  private readonly byName = new Map<string, { tool: Tool; listed: ListedTool }>();

  constructor(tools: readonly Tool[] = TOOLS) {
    for (const tool of tools) this.byName.set(tool.name, { tool, listed: listed(tool) });
  }

  find(name: string): Tool | undefined {
    return this.byName.get(name)?.tool;
  }

  /** The tools/list entries `principal` may call. */
  listFor(principal: Principal): ListedTool[] {
    return [...this.byName.values()].filter(({ tool }) => !refusalOf(principal, tool)).map((entry) => entry.listed);
  }
}
