// The MCP endpoint, Streamable HTTP (specification 2025-11-25) at /mcp on the application host, behind
// the shared hooks: TLS, request ids, the guard (credentials, C's workspace rate limit), metrics and the
// one error map. Stateless: every POST is answered on its own for its principal (server.ts), and
// no session is kept (no Mcp-Session-Id), so any instance behind a load balancer can answer any request
// and nothing has to be shared or made sticky. What a session would carry (a stream of server-initiated
// messages, a log level) this server does not use: GET (a server stream) and DELETE (end a session)
// answer 405, as the specification allows. Answers are JSON, not SSE: a tool call returns one message.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors.js';
import { mcpChallenge } from '../http/agent-admission.js';
import { SURFACE_POLICY, type RoutePolicy } from '../http/route-policy.js';
import type { Principal } from '../identity/principal.js';
import type { Services } from '../services.js';
import { HostCheck } from './host-check.js';
import { directToolCallOf, jsonRpcError } from './direct-tool-call.js';
import { McpServers } from './server.js';
import { callTool } from './tool-call.js';
import { ToolCatalog } from './tool-catalog.js';

export interface McpEndpointOptions {
  services: Services;
  /** Who the request acts for: the guard's principal, or (a test-only app) an injected one. */
  principalOf?: (request: FastifyRequest) => Principal;
  policy?: Partial<RoutePolicy>;
  catalog?: ToolCatalog;
}

const methodNotAllowed = (reply: FastifyReply) =>
  reply
    .code(405)
    .header('Allow', 'POST')
    .send({ error: 'This MCP server is stateless: send every message with POST; there is no server stream to open and no session to end', code: 'method_not_allowed' });

export const mcpEndpoint: FastifyPluginAsync<McpEndpointOptions> = async (app, options) => {
  const { services } = options;
  const catalog = options.catalog ?? new ToolCatalog();
  const servers = new McpServers(services, catalog);
  const principalOf = options.principalOf ?? ((request: FastifyRequest) => request.principal!);
  const config = options.policy ?? SURFACE_POLICY.mcp;
  const hosts = new HostCheck(services.config.mcpAllowedHosts);

  // Before the guard looks at any credential: a rebinding page gets nothing, not even a 401.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      hosts.check(request.host, request.headers.origin);
      done();
    } catch (error) {
      done(error as AppError);
    }
  });
  // A client without a usable credential is told where to learn how to get one (MCP authorization).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 401) void reply.header('WWW-Authenticate', mcpChallenge(request));
    done(null, payload);
  });

  const tags = ['MCP'];
  app.post(
    '/mcp',
    {
      config,
      schema: {
        tags,
        operationId: 'mcpMessage',
        summary: 'One MCP message (JSON-RPC) over Streamable HTTP; answered with JSON',
        // Refusals of the protocol itself are JSON-RPC error objects, as MCP clients read them; the
        // ones before it (credentials, host check, budgets, body limits) carry the service's shape.
        errors: {
          400: 'Also: a body that is not a JSON-RPC message, or an unsupported MCP-Protocol-Version (a JSON-RPC error object: `{"jsonrpc":"2.0","error":{"code","message"},"id":null}`)',
          403: 'Also: a Host or Origin that is not this service (DNS rebinding; `host_not_allowed` / `origin_not_allowed`)',
          406: 'Accept does not list both application/json and text/event-stream (a JSON-RPC error object)',
        },
      },
    },
    async (request, reply) => {
      const caller = { principal: principalOf(request), onFailure: (error: unknown, tool: string) => request.log.error({ err: error, tool }, 'MCP tool failed') };
      const direct = directToolCallOf(request.headers, request.body);
      if (direct) {
        const answer = await callTool(catalog, { services, principal: caller.principal }, direct.name, direct.args, caller).then(
          (result) => ({ result, jsonrpc: '2.0', id: direct.id }),
          (error: unknown) => jsonRpcError(direct.id, error),
        );
        return reply.type('application/json').send(JSON.stringify(answer));
      }
      const response = await servers.answer(webRequestOf(request), request.body, caller);
      void reply.code(response.status);
      response.headers.forEach((value, name) => void reply.header(name, value));
      return reply.send(await response.text());
    },
  );
  app.get('/mcp', { config, schema: { tags, operationId: 'mcpStream', summary: 'Answers 405: the server opens no stream of its own', errors: { 405: 'Always: send messages with POST (`method_not_allowed`)' } } }, async (_request, reply) => methodNotAllowed(reply));
  app.delete('/mcp', { config, schema: { tags, operationId: 'mcpEndSession', summary: 'Answers 405: the server keeps no session', errors: { 405: 'Always: there is no session to end (`method_not_allowed`)' } } }, async (_request, reply) => methodNotAllowed(reply));
};

/** The request as the SDK's web-standard transport reads it: its headers (the body is passed parsed). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers });
}
