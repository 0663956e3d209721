// Runs the unseen question sets through the product's real answer pipeline, offline (no language
// model) unless a run names a server: one workspace per domain on an in-memory store, the domain's DuckDB file as the workspace's
// `warehouse` connection, its model deployed, and a luminary who may see every row asking.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Answer } from '../../../src/answering/answer.js';
import { compileModel } from '../../../src/core/cml/index.js';
import { ALL_ROWS } from '../../../src/core/semantic/compile.js';
import { loadConfig } from '../../../src/config.js';
import { readModelDir } from '../../../src/demo-setup.js';
import type { Principal } from '../../../src/identity/principal.js';
import { createServices, type Services } from '../../../src/services.js';
import { memorySharedState } from '../../../src/shared-state/memory.js';
import { openStore } from '../../../src/store/db.js';
import { migrate } from '../../../src/store/migrate.js';
import { matchesExpected } from './compare.js';
import { UNSEEN_DOMAINS } from './domains.js';
import { evaluateExpected, type ExpectedResult } from './expected.js';
import { loadTables } from './load-duckdb.js';
import { isDecline, UNSEEN_NOW, type UnseenDomain, type UnseenQuestion } from './types.js';

/**
 * exact: a governed answer with the expected numbers; declined: no governed answer; wrong: a
 * governed answer with other numbers, or to a question that must be declined; error: the service
 * threw (never a governed number, but worth a look).
 */
export type Verdict = 'exact' | 'declined' | 'wrong' | 'error';

export interface QuestionOutcome {
  readonly question: UnseenQuestion;
  readonly verdict: Verdict;
  readonly answer?: Answer;
  readonly error?: string;
  readonly expected?: ExpectedResult;
  /** Statements the service ran on the warehouse for this question. */
  readonly sql: readonly string[];
}

export interface DomainRun {
  readonly domain: UnseenDomain;
  readonly metricCount: number;
  readonly outcomes: readonly QuestionOutcome[];
}

const governed = (answer: Answer): boolean => answer.provenance.reveal_backed;

/** Records the statements the answer service runs; the warehouse itself is the real one. */
function recordStatements(services: Services): { take(): string[] } {
  let statements: string[] = [];
  const connections = services.connections;
  const warehouse = connections.warehouse.bind(connections);
  connections.warehouse = async (...args: Parameters<typeof warehouse>) => {
    const found = await warehouse(...args);
    const real = found.warehouse;
    const recording = Object.create(real) as typeof real;
    Object.defineProperty(recording, 'run', {
      value: (sql: string, ...rest: unknown[]) => {
        statements.push(sql);
        return (real.run as (...a: unknown[]) => ReturnType<typeof real.run>).call(real, sql, ...rest);
      },
    });
    return { ...found, warehouse: recording };
  };
  return {
    take() {
      const taken = statements;
      statements = [];
      return taken;
    },
  };
}

async function setUpDomain(services: Services, domain: UnseenDomain) {
  const workspace = await services.members.createWorkspace({ name: `Unseen ${domain.name}`, plan: 'team' });
  const user = await services.members.createUser({ email: `analyst@${domain.name}.example.com`, name: 'Analyst', passwordHash: null });
  const files = await readModelDir(domain.modelDir);
  const { model, diagnostics } = compileModel(files);
  if (!model) throw new Error(`${domain.name} model does not compile: ${diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join('; ')}`);
  // A luminary with every data key open: the whole population is visible.
  const attributes = Object.fromEntries([...model.nodes.values()].flatMap((node) => node.dataKeys.map((key) => [key.attribute, ALL_ROWS] as const)));
  await services.members.addMembership({ workspaceId: workspace.id, userId: user.id, role: 'luminary', attributes });

  const directory = services.connections.directoryOf(workspace.id);
  await mkdir(directory, { recursive: true });
  const file = `warehouse.duckdb`;
  await loadTables(path.join(directory, file), domain.schema, domain.tables());
  const expected = await evaluateExpected(
    path.join(directory, file),
    domain.questions.flatMap((q) => (isDecline(q) ? [] : [q.expect])),
  );
  await services.connections.create(workspace.id, { name: 'warehouse', engine: 'duckdb', settings: { path: file } });
  await services.models.deploy({ workspaceId: workspace.id, userId: user.id, email: user.email }, domain.name, files, { message: `${domain.name} model` });

  const principal: Principal = {
    via: 'key',
    workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, timezone: 'UTC' },
    user: { id: user.id, email: user.email, name: user.name },
    role: 'luminary',
    attributes,
  };
  const metricNames = new Map([...model.reveals.values()].map((reveal) => [reveal.name, new Set(reveal.metrics.keys())]));
  const metricCount = [...metricNames.values()].reduce((sum, names) => sum + names.size, 0);
  return { principal, expected, metricNames, metricCount };
}

async function runDomain(services: Services, recorder: { take(): string[] }, domain: UnseenDomain): Promise<DomainRun> {
  const { principal, expected, metricNames, metricCount } = await setUpDomain(services, domain);
  // The first question of a workspace also reads the values of its dimensions; keep that out of the
  // statements shown for the questions.
  await services.answers.ask(principal, 'hello', undefined);
  recorder.take();
  const expectations = [...expected];
  const outcomes: QuestionOutcome[] = [];
  for (const question of domain.questions) {
    const expect = isDecline(question) ? undefined : expectations.shift()!;
    let answer: Answer;
    try {
      answer = await services.answers.ask(principal, question.question, undefined);
    } catch (error) {
      outcomes.push({ question, verdict: 'error', error: (error as Error).message, ...(expect ? { expected: expect } : {}), sql: recorder.take() });
      continue;
    }
    const sql = recorder.take();
    let verdict: Verdict;
    if (!governed(answer)) verdict = 'declined';
    else if (!expect) verdict = 'wrong';
    else verdict = matchesExpected(answer, expect, metricNames.get(answer.provenance.reveal ?? '') ?? new Set()) ? 'exact' : 'wrong';
    outcomes.push({ question, verdict, answer, ...(expect ? { expected: expect } : {}), sql });
  }
  return { domain, metricCount, outcomes };
}

export interface UnseenRunOptions {
  readonly domains?: readonly UnseenDomain[];
  /** An empty PostgreSQL database for the store; embedded PGlite (slower to start) when not given. */
  readonly databaseUrl?: string;
  /**
   * An OpenAI-compatible server the answer service is configured with, as SVC_LLM_BASE_URL would
   * configure it (translation, planning, prose, the SQL fallback); none by default: the offline planner.
   */
  readonly llmBaseUrl?: string;
  /** Told why a language model's work was not used. */
  readonly onNote?: (note: string) => void;
}

/** Loads every domain, asks every question, and cleans up after itself. */
export async function runUnseenSets({ domains = UNSEEN_DOMAINS, databaseUrl, llmBaseUrl, onNote }: UnseenRunOptions = {}): Promise<DomainRun[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'svc-unseen-'));
  const store = await openStore(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite' });
  const clock = { now: () => new Date(UNSEEN_NOW) };
  const shared = memorySharedState(clock);
  // No language model unless the run names one, whatever the environment says: the offline planner is what is measured.
  const llm = llmBaseUrl ? { baseUrl: llmBaseUrl, apiKey: undefined, model: 'eval-model', prose: true } : undefined;
  const config = { ...loadConfig({ SVC_DATA_DIR: dataDir, SVC_DEMO: 'off' }), llm };
  let services: Services | undefined;
  try {
    await migrate(store);
    services = createServices({ config, secretKey: randomBytes(32), store, shared, clock, ...(onNote ? { onNote } : {}) });
    const recorder = recordStatements(services);
    const runs: DomainRun[] = [];
    for (const domain of domains) runs.push(await runDomain(services, recorder, domain));
    return runs;
  } finally {
    await services?.connections.close();
    await services?.resultCache.close();
    await shared.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
