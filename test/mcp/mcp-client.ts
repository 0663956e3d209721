// The SDK's own Client against the app's /mcp: over Streamable HTTP on a real socket, or over stdio
// through `svc mcp` (spawned) forwarding to that socket.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { machineEnv } from '../helpers/spawned-server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
export type Channel = 'http' | 'stdio';

export async function connectClient(channel: Channel, url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'svc-test-agent', version: '1.0.0' });
  const transport =
    channel === 'http'
      ? new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } })
      : new StdioClientTransport({
          command: process.execPath,
          args: ['bin/svc.js', 'mcp'],
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...machineEnv(), SVC_MCP_URL: url, SVC_API_KEY: key },
          stderr: 'pipe',
        });
  await client.connect(transport);
  return client;
}

/** A tool's answer that must have succeeded: its structured content. */
export async function structured<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** A tool's answer that must have failed: the REST-shaped error body it carries. */
export async function toolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ error: string; code: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} should have failed: ${JSON.stringify(result.structuredContent)}`);
  const first = result.content[0];
  return JSON.parse(first?.type === 'text' ? first.text : '{}') as { error: string; code: string };
}
