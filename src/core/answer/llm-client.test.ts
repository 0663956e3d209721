import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../../test/helpers/fake-openai-server.js';
import { extractJsonObject, LlmClient, type LlmClientOptions, type StructuredRequest } from './llm-client.js';

const REQUEST: StructuredRequest = {
  system: 'Plan the question.',
  user: 'Question: revenue by channel',
  name: 'plan_query',
  description: 'Plan a governed query.',
  parameters: { type: 'object', properties: { no_match: { type: 'boolean' }, metrics: { type: 'array', items: { type: 'string', enum: ['revenue'] } } }, required: ['no_match'] },
};
const PLAN = { no_match: false, metrics: ['revenue'] };

const modeOf = (body: Record<string, unknown>) => (body['tools'] ? 'tools' : body['response_format'] ? 'json_schema' : 'json_text');

describe('extractJsonObject', () => {
  it.each([
    ['bare JSON', '{"a": 1}', '{"a": 1}'],
    ['a fenced block after a sentence', 'Here it is:\n```json\n{"a": {"b": [1, 2]}}\n```\nDone.', '{"a": {"b": [1, 2]}}'],
    ['braces and quotes inside strings', 'x {"reason": "a } b \\" {"} y', '{"reason": "a } b \\" {"}'],
    ['a first brace that is not JSON', 'use {braces} like {"a": true}', '{"a": true}'],
  ])('reads %s', (_what, text, expected) => {
    expect(extractJsonObject(text)).toBe(expected);
  });

  it.each(['', 'no object here', '{"unterminated": 1', '[1, 2]'])('finds nothing in %j', (text) => {
    expect(extractJsonObject(text)).toBeUndefined();
  });
});

describe('LlmClient output modes against an OpenAI-compatible server on loopback', () => {
  let server: FakeOpenAiServer;
  const client = (options: Partial<LlmClientOptions> = {}) => new LlmClient({ baseUrl: server.baseUrl, model: 'test-model', timeoutMs: 2000, ...options });

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.requests.length = 0;
    server.fallback = { kind: 'status', status: 500 };
    server.refuse = {};
  });

  it('uses a forced tool call when the server supports tools', async () => {
    server.script({ kind: 'object', value: PLAN });
    const reply = await client().structured(REQUEST);
    expect(reply).toMatchObject({ ok: true, mode: 'tools', notes: [] });
    expect(reply.ok && JSON.parse(reply.json)).toEqual(PLAN);
    expect(server.requests.map((r) => modeOf(r.body))).toEqual(['tools']);
  });

  it('moves to JSON-schema output when llama.cpp without --jinja refuses tools, and remembers it', async () => {
    server.refuse = { tools: { status: 500, message: 'tools param requires --jinja flag' } };
    server.script({ kind: 'object', value: PLAN }, { kind: 'object', value: PLAN });
    const llm = client();
    const first = await llm.structured(REQUEST);
    expect(first).toMatchObject({ ok: true, mode: 'json_schema' });
    expect(first.notes.join()).toMatch(/refused tools \(HTTP 500\)/);
    expect(first.ok && JSON.parse(first.json)).toEqual(PLAN);
    const second = await llm.structured(REQUEST);
    expect(second).toMatchObject({ ok: true, mode: 'json_schema', notes: [] });
    expect(server.requests.map((r) => modeOf(r.body))).toEqual(['tools', 'json_schema', 'json_schema']);
    const schema = server.requests[1]!.body['response_format'] as { type: string; json_schema: { name: string; schema: unknown } };
    expect(schema).toMatchObject({ type: 'json_schema', json_schema: { name: 'plan_query', schema: REQUEST.parameters } });
  });

  it('reads JSON from plain text when the server refuses both tools and response formats', async () => {
    server.refuse = { tools: { status: 400, message: 'model does not support tools' }, responseFormat: { status: 400, message: 'response_format is not supported' } };
    server.script({ kind: 'object', value: PLAN });
    const reply = await client().structured(REQUEST);
    expect(reply).toMatchObject({ ok: true, mode: 'json_text' });
    expect(reply.ok && JSON.parse(reply.json)).toEqual(PLAN);
    expect(server.requests.map((r) => modeOf(r.body))).toEqual(['tools', 'json_schema', 'json_text']);
    // The schema travels in the instruction when nothing else can carry it.
    expect(server.requests[2]!.raw).toContain('matching this JSON schema');
    expect(server.requests[2]!.raw).toContain('\\"enum\\":[\\"revenue\\"]');
  });

  it('accepts the object written as text by a model that ignores the tool choice', async () => {
    server.script({ kind: 'content', text: `Sure! ${JSON.stringify(PLAN)}` });
    const reply = await client().structured(REQUEST);
    expect(reply).toMatchObject({ ok: true, mode: 'tools' });
    expect(server.requests).toHaveLength(1);
  });

  it('tries tools again once the remembered refusal is older than relearnAfterMs', async () => {
    server.refuse = { tools: { status: 400, message: 'does not support tools' } };
    server.script({ kind: 'object', value: PLAN }, { kind: 'object', value: PLAN });
    const llm = client({ relearnAfterMs: 0 });
    await llm.structured(REQUEST);
    await llm.structured(REQUEST);
    expect(server.requests.map((r) => modeOf(r.body))).toEqual(['tools', 'json_schema', 'tools', 'json_schema']);
  });

  it('does not step down on a server failure: one retry, then gives up', async () => {
    server.script({ kind: 'status', status: 502 }, { kind: 'status', status: 503 });
    const reply = await client().structured(REQUEST);
    expect(reply).toMatchObject({ ok: false, reason: 'language model unavailable (HTTP 502, then HTTP 503)' });
    expect(server.requests.map((r) => modeOf(r.body))).toEqual(['tools', 'tools']);
  });

  it('gives up at once on a rejected key (401), without stepping down or retrying', async () => {
    server.script({ kind: 'status', status: 401, message: 'invalid api key' });
    const reply = await client().structured(REQUEST);
    expect(reply).toMatchObject({ ok: false, reason: 'language model unavailable (HTTP 401)' });
    expect(server.requests).toHaveLength(1);
  });

  it('returns plain text for prose, with the tokens used', async () => {
    server.script({ kind: 'content', text: '  Revenue was $10.00.  ' });
    const reply = await client().text('Write one sentence.', 'facts', 200);
    expect(reply).toMatchObject({ ok: true, text: 'Revenue was $10.00.' });
    expect(reply.tokensUsed).toBeGreaterThan(0);
    expect(server.requests[0]!.body['max_tokens']).toBe(200);
  });
});
