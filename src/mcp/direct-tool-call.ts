// The one message agents send most, a lone `tools/call`, answered without the SDK's transport and
// server: building a transport, connecting a server and passing the message through both cost more than
// a cached query itself (measured: a cache hit took twice C's time). Only a message the transport would
// take exactly as it is comes this way: the headers it requires (Accept, Content-Type, a supported
// MCP-Protocol-Version), a single JSON-RPC request of the plain shape; anything else (initialize, a
// batch, a notification, an odd field) goes through the SDK, which stays the judge of the protocol.
// The answer is the SDK's to the byte's meaning: the same tool call (tool-call.ts), the same result,
// errors as its Protocol shapes them; a test compares both paths.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingHttpHeaders } from 'node:http';

export interface DirectToolCall {
  readonly id: string | number;
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments']);

function headersAllow(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if ((headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json') return false;
  const version = headers['mcp-protocol-version'];
  return version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version));
}

/** The call, when the message is a plain lone tools/call under headers the transport accepts; else undefined. */
export function directToolCallOf(headers: IncomingHttpHeaders, body: unknown): DirectToolCall | undefined {
  if (!headersAllow(headers) || !isPlainObject(body)) return undefined;
  if (body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  if (!Object.keys(body).every((k) => REQUEST_KEYS.has(k))) return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (!isPlainObject(params) || typeof params.name !== 'string' || !Object.keys(params).every((k) => PARAM_KEYS.has(k))) return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  return { id: id as string | number, name: params.name, args: params.arguments as Record<string, unknown> | undefined };
}

/** A JSON-RPC error as the SDK's Protocol answers a handler's failure. */
export function jsonRpcError(id: string | number, error: unknown): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data?: unknown } } {
  const e = error as { code?: unknown; message?: string; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: { code: Number.isSafeInteger(e.code) ? (e.code as number) : -32603, message: e.message ?? 'Internal error', ...(e.data !== undefined ? { data: e.data } : {}) },
  };
}
