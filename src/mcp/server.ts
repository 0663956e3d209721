// The MCP server of one principal: tools, resources and the analyst prompt over the low-level SDK
// Server. The HTTP endpoint is stateless (see routes.ts), so a server lives for one request; everything
// costly (the tools' JSON Schemas) is built once in the ToolCatalog and shared.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../identity/principal.js';
import type { Services } from '../services.js';
import { ANALYST_PROMPT, analystPrompt } from './prompts.js';
import { listResources, readResource } from './resources.js';
import { callTool, type ToolCallHooks } from './tool-call.js';
import type { ToolCatalog } from './tool-catalog.js';

export const SERVER_INFO = { name: 'governed-analytics-service', title: 'Governed analytics', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Governed analytics for one workspace, with your data keys. Read the catalog (list_reveals, get_metrics, list_nodes, get_node), then query. The analyst prompt says how to answer.';

export function serverFor(services: Services, principal: Principal, catalog: ToolCatalog, hooks: ToolCallHooks): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });
  const call = { services, principal };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalog.listFor(principal) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(catalog, call, request.params.name, request.params.arguments, hooks));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(services, principal) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(services, principal, request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [ANALYST_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => analystPrompt(request.params.name, request.params.arguments));
  return server;
}
