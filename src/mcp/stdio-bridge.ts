// `svc mcp`: the MCP server for desktop clients that start a command and talk to it over stdio. It is a
// bridge, not a server: every message goes to a running server's /mcp with the key from the
// environment, and every answer comes back, so the agent gets exactly what HTTP clients get (the same
// auth, rate limits, history and data keys). It never opens the metadata store: the embedded store is
// owned by the server process, and a second opener would fight it for it.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { ConfigError } from '../config.js';

const bridgeEnv = z.object({
  SVC_MCP_URL: z.url({ protocol: /^https?$/ }).default('https://127.0.0.1:3000/mcp'),
  SVC_API_KEY: z.string().regex(/^svc_api_\S+$/, 'must be a structured API key (svc_api_…)'),
});

export interface BridgeOptions {
  env: NodeJS.ProcessEnv;
  stdin?: Readable;
  stdout?: Writable;
  /** Where the bridge says what went wrong (stderr: stdout carries only protocol messages). */
  log: (line: string) => void;
}

export function bridgeSettings(env: NodeJS.ProcessEnv): z.output<typeof bridgeEnv> {
  const parsed = bridgeEnv.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`svc mcp: ${issue.path.join('.')} ${issue.message}`);
  }
  return parsed.data;
}

/** Runs until the client closes stdin. */
export async function runStdioBridge({ env, stdin, stdout, log }: BridgeOptions): Promise<void> {
  const { SVC_MCP_URL: url, SVC_API_KEY: key } = bridgeSettings(env);
  const upstream = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  const local = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => (local.onclose = resolve));

  local.onmessage = (message: JSONRPCMessage) => {
    upstream.send(message).catch(async (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      log(`svc mcp: ${url} refused a message: ${reason}`);
      // A request must be answered, or the client waits for ever: with the server's reason.
      if (isJSONRPCRequest(message)) await local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `The server at ${url} refused the request: ${reason}` } });
    });
  };
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => log(`svc mcp: ${error.message}`);

  await upstream.start();
  await local.start();
  await closed;
  await upstream.close();
}
