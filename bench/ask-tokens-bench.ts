// Prompt size of the language-model path, counted offline with the o200k_base encoding (GPT-4o family)
// over exactly the request bodies the client sends: planning in each output mode (tools, JSON schema,
// JSON in text), for the demo catalog and a generated catalog of over 500 metrics, and the SQL
// fallback's prompt over the demo warehouse's tables. Target: planning prompts under 2,000 tokens.
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { compileModel } from '../src/core/cml/index.js';
import { buildCatalogIndex, type CatalogIndex } from '../src/core/answer/catalog-index.js';
import { OUTPUT_MODES, requestBody, type StructuredRequest } from '../src/core/answer/llm-client.js';
import { retrieveCandidates } from '../src/core/answer/llm-candidates.js';
import { planRequest } from '../src/core/answer/llm-prompt.js';
import { relevantTables, sqlRequest } from '../src/core/answer/sql-fallback.js';
import { CHANNELS, ORDER_STATUSES, REGIONS, SEGMENTS } from '../src/core/demo/vocabulary.js';
import { DEMO_SCHEMA, TABLE_COLUMNS } from '../src/core/demo/tables.js';
import { DEMO_MODEL_DIR, readModelDir } from '../src/demo-setup.js';
import { largeModel } from '../test/helpers/large-catalog.js';

const QUESTIONS = [
  'What was revenue last week?',
  'revenue by channel last month',
  'top 3 regions by orders this year',
  '¿Cuántos pedidos hubo el mes pasado?',
  'average order value for enterprise customers in Europe',
  // Names metrics of eight reveals in the large catalog: the worst case for what is sent.
  `revenue and ${[1, 2, 3, 4, 5, 6, 7].map((r) => `l${r} revenue`).join(' and ')} by channel`,
];

const SALES_VALUES = new Map<string, readonly string[]>([
  ['status', ORDER_STATUSES],
  ['channel', CHANNELS],
  ['ship_region', REGIONS],
  ['customers.segment', SEGMENTS],
]);

const encoder = new Tiktoken(o200kBase);

/** Message texts and tool/response schemas as the server's tokenizer sees them, plus the usual 4 tokens a message. */
function promptTokens(body: Record<string, unknown>): number {
  const messages = body['messages'] as Array<{ content: string }>;
  const extras = ['tools', 'response_format'].map((key) => (body[key] ? JSON.stringify(body[key]) : '')).join('');
  return messages.reduce((sum, message) => sum + encoder.encode(message.content).length + 4, 0) + encoder.encode(extras).length;
}

function summary(counts: number[]): string {
  const sorted = [...counts].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}`;
}

function planningLines(name: string, index: CatalogIndex): string[] {
  const metrics = index.reveals.flatMap((reveal) => reveal.metrics).length;
  const requests: StructuredRequest[] = QUESTIONS.map((question) =>
    planRequest(question, retrieveCandidates(question, index, { values: (reveal) => (reveal === 'customers' ? new Map() : SALES_VALUES), maxCandidates: 8 })),
  );
  return OUTPUT_MODES.map((mode) => {
    const counts = requests.map((request) => promptTokens(requestBody(request, mode, 'model')));
    const worst = Math.max(...counts);
    return `  ${name.padEnd(26)} (${String(metrics).padStart(3)} metrics) ${mode.padEnd(11)} ${summary(counts)} tokens (target < 2,000 ${worst < 2000 ? 'met' : 'NOT MET'})`;
  });
}

export async function benchAskTokens(): Promise<string[]> {
  const demo = compileModel(await readModelDir(DEMO_MODEL_DIR)).model!;
  const lines = [`LLM prompt tokens per question (o200k_base, ${QUESTIONS.length} questions; planning also sends only retrieved candidates)`];
  lines.push(...planningLines('demo catalog', buildCatalogIndex(demo)), ...planningLines('generated catalog', buildCatalogIndex(largeModel(demo))));

  const tables = Object.entries(TABLE_COLUMNS).map(([name, columns]) => ({ schema: DEMO_SCHEMA, name, columns: columns.map((c) => ({ name: c.name, type: c.kind.toUpperCase() })) }));
  const sqlCounts = ['how many units were sold across all order items', 'average product price by category', 'customers who signed up last month by country'].map((question) =>
    promptTokens(requestBody(sqlRequest({ question, engine: 'duckdb', tables: relevantTables(question, tables), timezone: 'UTC' }), 'tools', 'model')),
  );
  lines.push(`  SQL fallback over the demo warehouse (3 questions, tools)          ${summary(sqlCounts)} tokens`);
  return lines;
}
