// The MCP server: tools, resources and the analyst prompt over the low-level SDK Server. The HTTP
// endpoint is stateless (see routes.ts): each request gets a transport of its own and is answered by an
// idle server, which learns whom it acts for from the request (the principal rides in the transport's
// auth info) and goes back to the idle ones when the answer is out. Building a server for every request
// cost as much as the rest of the endpoint together; everything else costly (the tools' JSON Schemas)
// is built once in the ToolCatalog.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { grantedScopes, type Principal } from '../identity/principal.js';
import type { Services } from '../services.js';
import { ANALYST_PROMPT, analystPrompt } from './prompts.js';
import { listResources, readResource } from './resources.js';
import { callTool, type ToolCallHooks } from './tool-call.js';
import type { ToolCatalog } from './tool-catalog.js';

export const SERVER_INFO = { name: 'governed-analytics-service', title: 'Governed analytics', version: '0.1.0' } as const;

const INSTRUCTIONS =
  'Governed analytics for one workspace, with your data keys. Read the catalog (list_reveals, get_metrics, list_nodes, get_node), then query. The analyst prompt says how to answer.';

/** Servers kept idle for the next requests: enough for the requests one instance has in flight. */
const MAX_IDLE = 64;

/** Who one request acts for, and where its unexpected failures are reported. */
export interface McpCaller extends ToolCallHooks {
  principal: Principal;
}

function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  const caller = authInfo?.extra?.caller as McpCaller | undefined;
  // The endpoint always passes one: a request without it is a bug, not a client's mistake.
  if (!caller) throw new Error('MCP request without a caller');
  return caller;
}

function buildServer(services: Services, catalog: ToolCatalog): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => ({ tools: catalog.listFor(callerOf(extra.authInfo).principal) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const caller = callerOf(extra.authInfo);
    return callTool(catalog, { services, principal: caller.principal }, request.params.name, request.params.arguments, caller);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => ({ resources: await listResources(services, callerOf(extra.authInfo).principal) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => readResource(services, callerOf(extra.authInfo).principal, request.params.uri));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [ANALYST_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => analystPrompt(request.params.name, request.params.arguments));
  return server;
}

export class McpServers {
  private readonly idle: Server[] = [];

  constructor(
    private readonly services: Services,
    private readonly catalog: ToolCatalog,
  ) {}

  /** Answers one HTTP request (its body already parsed) for `caller`. */
  async answer(request: Request, parsedBody: unknown, caller: McpCaller): Promise<Response> {
    const server = this.idle.pop() ?? buildServer(this.services, this.catalog);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody, authInfo: { token: '', clientId: caller.principal.key?.id ?? caller.principal.oauth?.clientId ?? '', scopes: [...grantedScopes(caller.principal)], extra: { caller } } });
    } finally {
      // Closed, the server holds nothing of this request: the next one may use it.
      await server.close();
      if (this.idle.length < MAX_IDLE) this.idle.push(server);
    }
  }
}
