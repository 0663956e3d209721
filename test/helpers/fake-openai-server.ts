// A real OpenAI-compatible chat completions server on loopback, scripted per test. The planner is
// exercised through the `openai` package and a real socket, so time-outs, status codes and the wire
// format are the real ones; only the "model" is scripted.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_NOW } from './clock.js';

export type FakeReply =
  /** A tool call; `arguments` is sent as is when a string (to send malformed JSON), else serialised. */
  | { readonly kind: 'tool'; readonly name?: string; readonly arguments: unknown }
  /** Plain content text and no tool call, as a model that ignores `tool_choice` does. */
  | { readonly kind: 'content'; readonly text: string }
  /**
   * A JSON object in whatever form the request asks for, as a capable model would: a tool call when
   * tools are sent, bare JSON under a response_format, else JSON in a fenced block after a sentence.
   */
  | { readonly kind: 'object'; readonly value: unknown }
  | { readonly kind: 'status'; readonly status: number; readonly message?: string }
  /** Never answers: the client has to time out. */
  | { readonly kind: 'hang' };

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  /** The parsed JSON body. */
  readonly body: Record<string, unknown>;
  /** The raw body, to look for names anywhere in what was sent. */
  readonly raw: string;
  /** Rough token count of the body (characters / 4), what `usage.prompt_tokens` reports. */
  readonly promptTokens: number;
}

/** How servers without a feature answer, e.g. llama.cpp without --jinja: 500 "tools param requires --jinja flag". */
export interface Refusals {
  tools?: { status: number; message: string };
  responseFormat?: { status: number; message: string };
}

export interface FakeOpenAiServer {
  /** Base URL including `/v1`, as users configure it. */
  readonly baseUrl: string;
  readonly requests: ReceivedRequest[];
  /** Replies to the next requests, in order; when the queue is empty `fallback` answers. */
  script(...replies: FakeReply[]): void;
  fallback: FakeReply;
  /**
   * Replies by what a request asks, before the script: a server that answers one kind of request
   * (translations, say) and leaves the rest to the script and `fallback` by returning undefined.
   */
  respond: ((request: ReceivedRequest) => FakeReply | undefined) | undefined;
  /** Features this server refuses, checked before the script (a refusal consumes no scripted reply). */
  refuse: Refusals;
  close(): Promise<void>;
}

/** The estimate the server bills: about four characters per token, like the usual rule of thumb. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** An `object` reply in the form the request asks for. */
function shaped(reply: FakeReply, body: Record<string, unknown>): Exclude<FakeReply, { kind: 'object' }> {
  if (reply.kind !== 'object') return reply;
  const tools = body['tools'] as Array<{ function: { name: string } }> | undefined;
  if (tools?.length) return { kind: 'tool', name: tools[0]!.function.name, arguments: reply.value };
  if (body['response_format']) return { kind: 'content', text: JSON.stringify(reply.value) };
  return { kind: 'content', text: `Here is the JSON you asked for:\n\`\`\`json\n${JSON.stringify(reply.value, null, 2)}\n\`\`\`` };
}

function completion(model: string, reply: Extract<FakeReply, { kind: 'tool' | 'content' }>, promptTokens: number): Record<string, unknown> {
  const message =
    reply.kind === 'tool'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: reply.name ?? 'plan_query', arguments: typeof reply.arguments === 'string' ? reply.arguments : JSON.stringify(reply.arguments) },
            },
          ],
        }
      : { role: 'assistant', content: reply.text };
  const completionTokens = estimateTokens(JSON.stringify(message));
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: Math.floor(TEST_NOW.getTime() / 1000), // the service never reads it
    model,
    choices: [{ index: 0, message, finish_reason: reply.kind === 'tool' ? 'tool_calls' : 'stop', logprobs: null }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const queue: FakeReply[] = [];
  const requests: ReceivedRequest[] = [];
  const state: { fallback: FakeReply; refuse: Refusals; respond: FakeOpenAiServer['respond'] } = {
    fallback: { kind: 'status', status: 500, message: 'no reply scripted' },
    refuse: {},
    respond: undefined,
  };

  const server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const path = request.url ?? '';
      if (request.method !== 'POST' || path !== '/v1/chat/completions') {
        sendJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error' } });
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        sendJson(response, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
        return;
      }
      const promptTokens = estimateTokens(raw);
      const received = { path, headers: request.headers, body, raw, promptTokens };
      requests.push(received);
      const refusal = body['tools'] ? state.refuse.tools : body['response_format'] ? state.refuse.responseFormat : undefined;
      if (refusal) {
        sendJson(response, refusal.status, { error: { message: refusal.message, type: 'invalid_request_error' } });
        return;
      }
      const reply = shaped(state.respond?.(received) ?? queue.shift() ?? state.fallback, body);
      if (reply.kind === 'hang') return; // the socket stays open until the client gives up or close()
      if (reply.kind === 'status') {
        sendJson(response, reply.status, { error: { message: reply.message ?? 'scripted failure', type: 'server_error' } });
        return;
      }
      sendJson(response, 200, completion(String(body['model'] ?? 'fake'), reply, promptTokens));
    })().catch(() => response.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    get fallback() {
      return state.fallback;
    },
    set fallback(reply: FakeReply) {
      state.fallback = reply;
    },
    get refuse() {
      return state.refuse;
    },
    get respond() {
      return state.respond;
    },
    set respond(responder: FakeOpenAiServer['respond']) {
      state.respond = responder;
    },
    set refuse(refusals: Refusals) {
      state.refuse = refusals;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Hanging requests keep their sockets: drop them, or close() would wait for ever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
