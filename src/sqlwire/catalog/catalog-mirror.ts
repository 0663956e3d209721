// The catalog answers of the PostgreSQL-protocol interface: every statement a client sends about the
// database rather than about the data (psql's \d, JDBC's DatabaseMetaData, a BI tool's sync over
// pg_catalog and information_schema, `SELECT version()`) runs on a real PostgreSQL (PGlite) whose one
// database holds the tables the caller may see, empty, with their descriptions as comments. Its answers
// are PostgreSQL's own, byte for byte, for any catalog query any client sends.
//
// A mirror serves many connections (one PostgreSQL session, so statements take turns) and is kept
// while it is used: the most recently used few, each until it has been idle for a while. Building one
// costs a fraction of a second (a copy of a template made once per process, in two or three seconds,
// then the tables). Its contents never change, so the answers that depend only on the statement, its
// parameters and settings are kept (kept-answers.ts) and given again without running anything.
import { LRUCache } from 'lru-cache';
import { loadSqlParser } from '../../core/sqlapi/pg-ast.js';
import type { SqlTable } from '../../core/sqlapi/tables.js';
import { CATALOG_SQLSTATE, CatalogError } from './catalog-error.js';
import { CATALOG_FACTS_SQL, CatalogFacts } from './catalog-facts.js';
import { describeKey, KeptAnswers, runKey } from './kept-answers.js';
import { DEFAULT_PRODUCT, mirrorSetup, templateSetup } from './mirror-setup.js';
import { buildTemplate, compilePgliteWasm, MirrorThread, type PgliteWasm } from './mirror-thread.js';
import { mayNameRenamedColumn } from './renamed-columns.js';
import { CatalogStatements, readsClock, type StatementAnalysis } from './statement-analysis.js';
import { describeRequest, readDescribeAnswer, readRunAnswer, runRequest, type CatalogResult, type RunOptions, type SessionSettings, type StatementDescription } from './wire-exchange.js';

export type { CatalogResult, FieldDescription, RunOptions, SessionSettings, StatementDescription } from './wire-exchange.js';

export interface MirrorContents {
  readonly tables: readonly SqlTable[];
  /** The database's name, as clients connect to it and `current_database()` answers: the project's slug. */
  readonly database: string;
}

export interface CatalogMirrorsOptions {
  /** Mirrors kept at most; the least recently used goes first. */
  readonly maxMirrors?: number;
  /** A mirror unused this long is closed. */
  readonly idleMs?: number;
  /** A statement running longer is cancelled (57014) and its mirror's PostgreSQL restarted. */
  readonly statementTimeoutMs?: number;
  /**
   * A mirror whose PostgreSQL memory grew past this (a statement that sorted or built a lot: WebAssembly
   * memory never shrinks) is restarted after the statement, which gives the memory back.
   */
  readonly maxHeapBytes?: number;
  /** The product `version()` names. */
  readonly product?: string;
}

const DEFAULTS = {
  // Each mirror holds a PostgreSQL in memory, about 100 MB of the process's resident memory (its data
  // directory, its buffers, its thread): eight are the projects in use at once in all but large
  // deployments, and a ninth costs a rebuild of a fraction of a second.
  maxMirrors: 8,
  // A BI tool browses in bursts (connect, sync, a few \d): a mirror idle for ten minutes is done.
  idleMs: 10 * 60_000,
  // Catalog queries take milliseconds; one taking seconds is a mistake or an abuse, and holds every
  // connection of its mirror waiting meanwhile.
  statementTimeoutMs: 10_000,
  // A mirror's PostgreSQL starts with 128 MB of WebAssembly memory: twice that is a statement that built
  // something large (a sort, a string) rather than a catalog answer.
  maxHeapBytes: 256 * 1024 * 1024,
} as const;

interface MirrorLimits {
  readonly statementTimeoutMs: number;
  readonly maxHeapBytes: number;
}

/**
 * One project's catalog. Statements take turns; each finds the database as the previous one left it,
 * which is as it was built. A mirror whose PostgreSQL stopped (a statement timed out, or failed inside
 * PostgreSQL) starts it again for the next statement.
 */
export class CatalogMirror {
  private thread?: Promise<MirrorThread>;
  private turn: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly kept = new KeptAnswers();

  constructor(
    private readonly startThread: () => Promise<MirrorThread>,
    private readonly limits: MirrorLimits,
    private readonly statements: CatalogStatements,
  ) {}

  /** Started at once, so that a mirror is ready when `get` gives it. */
  async open(): Promise<this> {
    await this.currentThread();
    return this;
  }

  /**
   * The parameter types and result columns of a statement, without running it (Parse, Describe), under
   * the connection's settings (standard_conforming_strings and search_path change how it is read).
   */
  async describe(sql: string, paramTypeOids: readonly number[] = [], settings?: SessionSettings): Promise<StatementDescription> {
    if (this.closed) throw closedError();
    const key = describeKey(sql, paramTypeOids, settings);
    const kept = this.kept.description(key);
    if (kept) return kept;
    // A description is kept whatever the statement calls: only a text that may change needs reading.
    const statement = mayNameRenamedColumn(sql) ? this.statements.analysis(sql) : undefined;
    const description = await this.exchange(() => describeRequest(statement?.text ?? sql, paramTypeOids, settings), readDescribeAnswer, statement);
    this.kept.keep(key, description);
    return description;
  }

  /** The statement's result, run read-only with its parameters in text format, or its CatalogError. */
  async run(sql: string, params: readonly (string | null)[] = [], options: RunOptions = {}): Promise<CatalogResult> {
    if (this.closed) throw closedError();
    const key = runKey(sql, params, options);
    const kept = this.kept.run(key);
    if (kept) return kept;
    // A statement read before is known. Another is read first only when its text may change (it may
    // name a renamed column); otherwise while the mirror runs it, the reading deciding then only whether
    // the answer is kept, and the whole session reset after it, as after anything not known.
    let statement = this.statements.known(sql) ?? (mayNameRenamedColumn(sql) ? this.statements.analysis(sql) : undefined);
    const leaves = statement !== undefined && statement.volatility !== 'volatile' ? 'transaction' : 'session';
    const analysis = () => (statement ??= this.statements.analysis(sql));
    const result = await this.exchange(() => runRequest(statement?.text ?? sql, params, { ...options, leaves }), readRunAnswer, statement, analysis);
    if (analysis().volatility === 'fixed' && !params.some(readsClock)) this.kept.keep(key, result);
    return result;
  }

  /** What the kept answers saved: answers given without running, answers kept and their bytes. */
  get keptAnswers(): { hits: number; entries: number; bytes: number } {
    return this.kept.stats;
  }

  /** Closes the mirror once the statements already sent have their answers. */
  async close(): Promise<void> {
    this.closed = true;
    await this.takeTurn(async () => {
      const thread = this.thread;
      this.thread = undefined;
      if (thread) await (await thread.catch(() => undefined))?.terminate();
    });
  }

  /**
   * One exchange with the mirror's thread, in turn. `meanwhile` runs once the messages are posted, while
   * PostgreSQL answers them in its thread. Errors point into the client's text (`statement`'s edits).
   */
  private exchange<T>(request: () => Uint8Array, read: (answer: Uint8Array) => T, statement: StatementAnalysis | undefined, meanwhile?: () => unknown): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    let bytes: Uint8Array;
    try {
      bytes = request();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.takeTurn(async () => {
      if (this.closed) throw closedError();
      const thread = await this.currentThread();
      let answer: { bytes: Uint8Array; heapBytes: number };
      const answering = thread.exec(bytes, this.limits.statementTimeoutMs);
      meanwhile?.();
      try {
        answer = await answering;
      } catch (error) {
        // Timed out (the thread is stopped already), or the thread failed: the next statement starts another.
        this.restart(thread);
        throw error;
      }
      if (answer.heapBytes > this.limits.maxHeapBytes) this.restart(thread);
      try {
        return read(answer.bytes);
      } catch (error) {
        // PostgreSQL's internal errors (and the mirror's own) leave its state in doubt.
        if (error instanceof CatalogError && error.sqlstate === CATALOG_SQLSTATE.INTERNAL_ERROR) this.restart(thread);
        throw inClientText(error, statement);
      }
    });
  }

  private restart(thread: MirrorThread): void {
    this.thread = undefined;
    if (thread.alive) void thread.terminate();
  }

  private currentThread(): Promise<MirrorThread> {
    if (!this.thread) {
      const started = this.startThread();
      this.thread = started;
      // A start that failed is tried again by the next statement.
      started.catch(() => {
        if (this.thread === started) this.thread = undefined;
      });
    }
    return this.thread;
  }

  private takeTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => undefined);
    return result;
  }
}

/** An error pointing into the text the mirror ran, pointing into the client's text instead. */
function inClientText(error: unknown, statement: StatementAnalysis | undefined): unknown {
  if (!(error instanceof CatalogError) || error.position === undefined || !statement) return error;
  const position = statement.originalPosition(error.position);
  return position === error.position ? error : new CatalogError(error.sqlstate, error.message, error.hint, position, error.detail);
}

function closedError(): CatalogError {
  return new CatalogError(CATALOG_SQLSTATE.ADMIN_SHUTDOWN, 'terminating connection due to administrator command');
}

/**
 * The mirrors of the process, by a key the caller chooses: one per set of tables and database name (for
 * example workspace, project and model version, and whatever decides which tables a caller sees).
 * Ask for the mirror for each statement rather than keeping it: a mirror closed for being the least
 * recently used, or idle, refuses statements (57P01).
 */
export class CatalogMirrors {
  private readonly limits: MirrorLimits;
  private readonly product: string;
  private readonly mirrors: LRUCache<string, CatalogMirror>;
  private readonly building = new Map<string, Promise<CatalogMirror>>();
  private prepared?: Promise<{ wasm: PgliteWasm; template: Blob; statements: CatalogStatements }>;
  private closed = false;

  constructor(options: CatalogMirrorsOptions = {}) {
    this.limits = {
      statementTimeoutMs: options.statementTimeoutMs ?? DEFAULTS.statementTimeoutMs,
      maxHeapBytes: options.maxHeapBytes ?? DEFAULTS.maxHeapBytes,
    };
    this.product = options.product ?? DEFAULT_PRODUCT;
    this.mirrors = new LRUCache<string, CatalogMirror>({
      max: options.maxMirrors ?? DEFAULTS.maxMirrors,
      ttl: options.idleMs ?? DEFAULTS.idleMs,
      updateAgeOnGet: true,
      ttlAutopurge: true,
      dispose: (mirror) => void mirror.close(),
    });
  }

  /** The mirror for `key`, built from `build()` the first time (concurrent first asks build it once). */
  async get(key: string, build: () => MirrorContents | Promise<MirrorContents>): Promise<CatalogMirror> {
    if (this.closed) throw closedError();
    const kept = this.mirrors.get(key);
    if (kept) return kept;
    let building = this.building.get(key);
    if (!building) {
      building = this.build(build).finally(() => this.building.delete(key));
      this.building.set(key, building);
    }
    const mirror = await building;
    if (this.closed) {
      await mirror.close();
      throw closedError();
    }
    if (!this.mirrors.has(key)) this.mirrors.set(key, mirror);
    return this.mirrors.get(key) ?? mirror;
  }

  /**
   * Compiles PostgreSQL and makes the template now (at start-up, say) rather than for the first
   * mirror, whose client would otherwise wait those seconds.
   */
  async ready(): Promise<void> {
    await this.prepare();
  }

  /** How many mirrors are kept. */
  get size(): number {
    return this.mirrors.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    const mirrors = [...this.mirrors.values()];
    this.mirrors.clear();
    await Promise.all(mirrors.map((m) => m.close()));
  }

  private async build(build: () => MirrorContents | Promise<MirrorContents>): Promise<CatalogMirror> {
    const [{ wasm, template, statements }, contents] = await Promise.all([this.prepare(), build()]);
    const setup = mirrorSetup(contents.tables, contents.database);
    return new CatalogMirror(() => MirrorThread.start(wasm, template, setup), this.limits, statements).open();
  }

  /**
   * The compiled WebAssembly, the template and what it says of its functions and views (which the
   * statements sent to every mirror are analysed with), made once; a failure is tried again next time.
   */
  private prepare(): Promise<{ wasm: PgliteWasm; template: Blob; statements: CatalogStatements }> {
    this.prepared ??= (async () => {
      const [wasm] = await Promise.all([compilePgliteWasm(), loadSqlParser()]);
      const { dataDir, facts } = await buildTemplate(wasm, templateSetup(this.product), CATALOG_FACTS_SQL);
      return { wasm, template: dataDir, statements: new CatalogStatements(new CatalogFacts(facts)) };
    })().catch((error: unknown) => {
      this.prepared = undefined;
      throw error;
    });
    return this.prepared;
  }
}
