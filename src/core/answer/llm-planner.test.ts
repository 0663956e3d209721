import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../cml/index.js';
import { DEMO_MODEL_DIR, readModelDir } from '../../demo-setup.js';
import type { SemanticModel } from '../semantic/model.js';
import { largeModel } from '../../../test/helpers/large-catalog.js';
import { estimateTokens, startFakeOpenAiServer, type FakeOpenAiServer } from '../../../test/helpers/fake-openai-server.js';
import { buildCatalogIndex, type CatalogIndex } from './catalog-index.js';
import { LlmClient, type LlmClientOptions } from './llm-client.js';
import { createLlmPlanner } from './llm-planner.js';
import { planOffline } from './offline-planner.js';

const SALES_VALUES = new Map<string, readonly string[]>([
  ['status', ['completed', 'pending', 'cancelled', 'refunded']],
  ['channel', ['web', 'mobile', 'marketplace']],
  ['ship_region', ['North America', 'Europe']],
  ['customers.segment', ['consumer', 'small_business', 'enterprise']],
]);
const values = (reveal: string) => (reveal === 'customers' ? new Map<string, readonly string[]>() : SALES_VALUES);

describe('createLlmPlanner against an OpenAI-compatible server on loopback', () => {
  let server: FakeOpenAiServer;
  let demo: SemanticModel;
  let index: CatalogIndex;
  const client = (options: Partial<LlmClientOptions> = {}) => new LlmClient({ baseUrl: server.baseUrl, model: 'test-model', timeoutMs: 2000, ...options });
  const planner = (options: Partial<LlmClientOptions> = {}) => createLlmPlanner(client(options));

  beforeAll(async () => {
    server = await startFakeOpenAiServer();
    demo = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
    index = buildCatalogIndex(demo);
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.requests.length = 0;
    server.fallback = { kind: 'status', status: 500 };
    server.refuse = {};
  });

  it('returns the plan of a valid tool call, with the tokens the server reports', async () => {
    server.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'], filters: [{ field: 'ship_region', value: 'europe' }], sort: { field: 'revenue', direction: 'desc' }, limit: 3 } });
    const result = await planner().plan('top 3 channels by revenue in Europe', index, { values });
    expect(result).toEqual({
      via: 'llm',
      mode: 'tools',
      tokensUsed: expect.any(Number),
      plan: {
        kind: 'governed',
        reveal: 'sales',
        metrics: ['revenue'],
        dimensions: ['channel'],
        filters: [{ field: 'ship_region', operator: 'equals', value: 'Europe' }],
        sort: { field: 'revenue', direction: 'desc' },
        limit: 3,
        matchedBy: 'synonym',
      },
    });
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(result.tokensUsed).toBeGreaterThan(sent.promptTokens);
    expect(sent.body['model']).toBe('test-model');
    expect(sent.body['tool_choice']).toEqual({ type: 'function', function: { name: 'plan_query' } });
    expect(sent.headers['authorization']).toBe('Bearer not-needed');
  });

  it('sends only the retrieved candidates, never the whole catalog', async () => {
    server.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'] } });
    await planner().plan('revenue by channel', index, { values });
    const sent = server.requests[0]!;
    const tool = (sent.body['tools'] as Array<{ function: { parameters: { properties: Record<string, { enum?: string[]; items?: { enum?: string[] } }> } } }>)[0]!;
    const offered = tool.function.parameters.properties['metrics']!.items!.enum!;
    expect(offered).toContain('revenue');
    expect(offered.length).toBeLessThan(index.reveals.flatMap((reveal) => reveal.metrics).length);
    expect(tool.function.parameters.properties['reveal']!.enum).toEqual(['sales']);
    // Metric names are distinctive enough to look for anywhere in what went over the wire.
    for (const name of ['business_share', 'enterprise_customers', 'business_customers', 'countries', 'cancellation_rate', 'buyers', 'completed_orders', 'discounts']) {
      expect(sent.raw).not.toContain(name);
    }
    for (const metric of index.reveals.flatMap((reveal) => reveal.metrics)) {
      if (!offered.includes(metric.name)) expect(sent.raw).not.toContain(`"${metric.name}"`);
    }
    // The customers reveal has no candidate: none of its labels or the reveal itself is sent.
    expect(sent.raw).not.toContain('reveal customers');
  });

  it('falls back to the offline planner after two server errors', async () => {
    server.script({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    const result = await planner().plan('revenue by channel', index, { values });
    expect(server.requests).toHaveLength(2);
    expect(result).toMatchObject({ via: 'offline', tokensUsed: 0, plan: planOffline('revenue by channel', index, { values }) });
    expect(result.note).toMatch(/HTTP 500.*HTTP 500/);
  });

  it('retries once after a server error and uses the second answer', async () => {
    server.script({ kind: 'status', status: 503 }, { kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['gross_revenue'] } });
    const result = await planner().plan('gross revenue', index, { values });
    expect(server.requests).toHaveLength(2);
    expect(result).toMatchObject({ via: 'llm', plan: { kind: 'governed', metrics: ['gross_revenue'] } });
  });

  it('times out, retries once, then falls back to the offline planner', async () => {
    server.script({ kind: 'hang' }, { kind: 'hang' });
    const started = performance.now();
    const result = await planner({ timeoutMs: 200 }).plan('revenue by channel', index, { values });
    const elapsed = performance.now() - started;
    expect(server.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(3000);
    expect(result).toMatchObject({ via: 'offline', tokensUsed: 0, plan: { kind: 'governed', metrics: ['revenue'], dimensions: ['channel'] } });
    expect(result.note).toMatch(/timed out.*timed out/);
  });

  it('falls back when the tool arguments are not JSON', async () => {
    server.script({ kind: 'tool', arguments: '{"reveal": "sales", "metrics": ["revenue"' });
    const result = await planner().plan('revenue by channel', index, { values });
    expect(server.requests).toHaveLength(1);
    expect(result).toMatchObject({ via: 'offline', plan: { kind: 'governed', metrics: ['revenue'] } });
    expect(result.note).toMatch(/not JSON/);
    expect(result.tokensUsed).toBeGreaterThan(0);
  });

  it.each([
    ['an unknown metric', { reveal: 'sales', metrics: ['profit'] }, /"profit" is not a candidate metric/],
    ['a catalog metric retrieval did not offer', { reveal: 'sales', metrics: ['buyers'] }, /"buyers" is not a candidate metric/],
    ['metrics of another reveal', { reveal: 'sales', metrics: ['revenue', 'countries'] }, /"countries" is not a candidate metric of sales/],
    ['an unknown field', { reveal: 'sales', metrics: ['revenue'], dimensions: ['cohort'] }, /"cohort" is not a field/],
    ['an unknown value', { reveal: 'sales', metrics: ['revenue'], filters: [{ field: 'channel', value: 'telephone' }] }, /"telephone" is not a known value/],
    ['a sort on nothing chosen', { reveal: 'sales', metrics: ['revenue'], sort: { field: 'orders', direction: 'desc' } }, /cannot sort by "orders"/],
    ['a limit out of range', { reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'], limit: 1e6 }, /limit/],
  ])('falls back on arguments with %s', async (_what, args, note) => {
    server.script({ kind: 'tool', arguments: { no_match: false, ...args } });
    const result = await planner().plan('revenue by channel', index, { values });
    expect(result.via).toBe('offline');
    expect(result.note).toMatch(note);
    expect(result.plan).toEqual(planOffline('revenue by channel', index, { values }));
  });

  it('falls back when the model answers in French in every output mode, and the plan is still right', async () => {
    const french = { kind: 'content', text: "Le chiffre d'affaires par canal se calcule avec la métrique revenue." } as const;
    server.script(french, french, french);
    const result = await planner().plan("chiffre d'affaires par canal", index, { values });
    expect(server.requests.map((r) => (r.body['tools'] ? 'tools' : r.body['response_format'] ? 'json_schema' : 'json_text'))).toEqual(['tools', 'json_schema', 'json_text']);
    expect(result.via).toBe('offline');
    expect(result.note).toMatch(/without calling plan_query.*no JSON object in the json_text reply/);
    expect(result.plan).toEqual({ kind: 'governed', reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'], filters: [], matchedBy: 'synonym' });
  });

  it("turns the model's no_match into a no-match plan whose closest metrics come from the ranking", async () => {
    server.script({ kind: 'tool', arguments: { no_match: true, reason: 'Nothing governed measures churn by cohort.' } });
    const result = await planner().plan('churn rate by cohort', index, { values });
    expect(result.via).toBe('llm');
    expect(result.plan).toEqual({
      kind: 'no_match',
      reason: 'Nothing governed measures churn by cohort.',
      closest: [
        { reveal: 'sales', metric: 'cancellation_rate', label: 'Cancellation rate' },
        { reveal: 'customers', metric: 'countries', label: 'Countries' },
        { reveal: 'sales', metric: 'completed_orders', label: 'Completed orders' },
      ],
    });
  });

  it('never reports a pick the question does not name as high confidence', async () => {
    server.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'] } });
    const result = await planner().plan('how much was paid', index, { values });
    expect(result).toMatchObject({ via: 'llm', plan: { kind: 'governed', metrics: ['revenue'], matchedBy: 'description' } });
  });

  it('merges filters on one field and returns values as stored', async () => {
    server.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['orders'], filters: [{ field: 'channel', value: 'WEB' }, { field: 'channel', value: 'mobile' }] } });
    const result = await planner().plan('web and mobile orders', index, { values });
    expect(result.plan).toMatchObject({ kind: 'governed', filters: [{ field: 'channel', operator: 'in', value: ['web', 'mobile'] }] });
  });

  it('reads values left out, "per" and shares from the arguments, checked like the rest', async () => {
    server.script(
      { kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'], filters: [{ field: 'channel', value: 'marketplace', exclude: true }, { field: 'ship_region', value: 'europe' }] } },
      { kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'], per: 'buyers' } },
      { kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['orders'], share: { field: 'channel', value: 'Web' } } },
      { kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['orders'], dimensions: ['channel'], share: {} } },
    );
    expect((await planner().plan('revenue in Europe excluding the marketplace', index, { values })).plan).toMatchObject({
      filters: [
        { field: 'channel', operator: 'notEquals', value: 'marketplace' },
        { field: 'ship_region', operator: 'equals', value: 'Europe' },
      ],
    });
    expect((await planner().plan('revenue per buyer', index, { values })).plan).toMatchObject({ kind: 'governed', metrics: ['revenue'], per: { by: 'buyers' } });
    expect((await planner().plan('what share of orders were web orders', index, { values })).plan).toMatchObject({ kind: 'governed', share: { part: { field: 'channel', value: 'web' } } });
    expect((await planner().plan('share of each channel in orders', index, { values })).plan).toMatchObject({ kind: 'governed', dimensions: ['channel'], share: {} });
  });

  it('falls back when "per" or a share cannot be one query', async () => {
    const cases = [
      { per: 'revenue', metrics: ['revenue'] },
      { per: 'not_a_metric', metrics: ['revenue'] },
      { share: { field: 'channel', value: 'fax' }, metrics: ['orders'] },
      { share: {}, metrics: ['orders'] },
      { per: 'buyers', metrics: ['revenue'], dimensions: ['channel'], sort: { field: 'revenue', direction: 'desc' }, limit: 3 },
    ];
    for (const extra of cases) {
      server.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', ...extra } });
      const result = await planner().plan('revenue per buyer', index, { values });
      expect(result.via, JSON.stringify(extra)).toBe('offline');
      expect(result.note, JSON.stringify(extra)).toMatch(/invalid plan_query arguments/);
    }
  });

  it('keeps the prompt small for the demo catalog and for a 500-metric catalog', async () => {
    const large = buildCatalogIndex(largeModel(demo));
    expect(large.reveals.flatMap((reveal) => reveal.metrics).length).toBeGreaterThanOrEqual(500);
    const figures: Record<string, { metricsInCatalog: number; metricsSent: number; revealsSent: number; promptTokensByServer: number; charsOver4: number }> = {};
    // The last question names metrics of eight reveals: the worst case for the fields sent.
    const spread = `revenue and ${[1, 2, 3, 4, 5, 6, 7].map((r) => `l${r} revenue`).join(' and ')} by channel`;
    for (const [name, catalog, question] of [
      ['demo', index, 'top 3 channels by revenue in Europe'],
      ['500 metrics', large, 'top 3 channels by revenue in Europe'],
      ['500 metrics, 8 reveals', large, spread],
    ] as const) {
      server.script({ kind: 'tool', arguments: { no_match: false, reveal: 'sales', metrics: ['revenue'], dimensions: ['channel'] } });
      const result = await planner().plan(question, catalog, { values });
      expect(result).toMatchObject({ via: 'llm', plan: { reveal: 'sales', metrics: ['revenue'] } });
      const sent = server.requests.at(-1)!;
      const body = sent.body as { messages: unknown; tools: unknown };
      const offered = (body.tools as Array<{ function: { parameters: { properties: { metrics: { items: { enum: string[] } } } } } }>)[0]!.function.parameters.properties.metrics.items.enum;
      figures[name] = {
        metricsInCatalog: catalog.reveals.flatMap((reveal) => reveal.metrics).length,
        metricsSent: offered.length,
        revealsSent: (sent.raw.match(/reveal [a-z_0-9]+ \(/g) ?? []).length,
        promptTokensByServer: sent.promptTokens,
        charsOver4: estimateTokens(JSON.stringify({ messages: body.messages, tools: body.tools })),
      };
      expect(offered.length).toBeLessThanOrEqual(8);
      expect(sent.promptTokens).toBeLessThan(2000);
    }
    console.log('prompt size', JSON.stringify(figures));
  });
});
