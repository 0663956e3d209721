// One run in one round trip: the whole transaction is written at once over the extended protocol and
// answered by a single ReadyForQuery.
//
//   BEGIN READ ONLY · set_config(…, true) for the time limit and the run's settings ·
//   <statement> (Describe, Execute all) · ROLLBACK · SELECT pg_advisory_unlock_all() · Sync
//
// The statement runs to completion in one Execute, so PostgreSQL may use parallel workers (an Execute
// with a row count, as a cursor sends, runs the plan without them); the caller caps rows in the SQL
// (postgres-capped-select.ts), and rows past `keep` are dropped as they arrive all the same. Each
// message is its own statement over the extended protocol, which accepts one statement per Parse.
//
// Nothing of the statement outlives the run on the pooled connection: the settings a SELECT can change
// (set_config, even with is_local false) are transactional and undone by the ROLLBACK, temporary
// objects and sequences cannot be created or advanced in a read-only transaction, and advisory locks,
// the one session state that survives a rollback, are released by the last statement. The settings
// the run relies on (date formats, strings read as the parser read them) are set for the transaction
// as well as at connect, so a pooler that drops startup options changes nothing.
//
// If any message fails, the server skips the rest up to Sync and the transaction is left aborted:
// `ended` is false and the caller must roll back and reset before the connection is reused.
import pg from 'pg';

type PgConnection = pg.Connection & {
  parse(query: { text: string; name?: string }): void;
  bind(config: { portal?: string; statement?: string; values?: readonly unknown[]; valueMapper?: (value: unknown) => unknown }): void;
  describe(message: { type: 'S' | 'P'; name: string }): void;
  execute(config: { portal?: string; rows?: number }): void;
  sync(): void;
  stream: { cork?: () => void; uncork?: () => void };
};

export interface Field {
  readonly name: string;
  readonly dataTypeID: number;
}

export interface OneTripResult {
  readonly fields: readonly Field[];
  readonly rows: unknown[][];
}

// pg's own value serialisation (Dates, Buffers, arrays, objects as JSON), as its Query uses.
const { prepareValue } = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils;

type Stage = 'before' | 'reading' | 'after';

class OneTripRun implements pg.Submittable {
  private stage: Stage = 'before';
  private fields: Field[] = [];
  private parsers: ((text: string) => unknown)[] = [];
  private readonly rows: unknown[][] = [];
  private failure: Error | undefined;
  private settled = false;

  constructor(
    private readonly sql: string,
    private readonly params: readonly unknown[],
    private readonly settings: string,
    private readonly keep: number,
    private readonly types: pg.CustomTypesConfig,
    private readonly done: (error: Error | null, result?: OneTripResult) => void,
  ) {}

  submit(connection: pg.Connection): void {
    const con = connection as PgConnection;
    const simple = (text: string) => {
      con.parse({ text });
      con.bind({});
      con.execute({});
    };
    // One write: the messages leave in a single packet.
    con.stream.cork?.();
    try {
      simple('BEGIN READ ONLY');
      simple(this.settings);
      con.parse({ text: this.sql });
      con.bind({ values: this.params, valueMapper: prepareValue });
      con.describe({ type: 'P', name: '' });
      con.execute({ rows: 0 });
      simple('ROLLBACK');
      simple('SELECT pg_catalog.pg_advisory_unlock_all()');
      con.sync();
    } finally {
      con.stream.uncork?.();
    }
  }

  handleRowDescription(message: { fields: Field[] }): void {
    if (this.stage !== 'before') return;
    this.stage = 'reading';
    this.fields = message.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
    this.parsers = this.fields.map((f) => this.types.getTypeParser(f.dataTypeID, 'text') as (text: string) => unknown);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    // Only the statement's rows count (the unlock's row arrives later, without a description).
    if (this.stage !== 'reading' || this.rows.length >= this.keep || this.failure) return;
    try {
      this.rows.push(message.fields.map((value, i) => (value === null ? null : this.parsers[i]!(value))));
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }

  handleCommandComplete(): void {
    if (this.stage === 'reading') this.stage = 'after';
  }

  handleError(error: Error): void {
    // Sync was already sent: the server answers ReadyForQuery, which the client consumes on its own.
    this.settle(error);
  }

  handleReadyForQuery(): void {
    if (this.failure) return this.settle(this.failure);
    this.settle(null, { fields: this.fields, rows: this.rows });
  }

  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}

  private settle(error: Error | null, result?: OneTripResult): void {
    if (this.settled) return;
    this.settled = true;
    this.done(error, result);
  }
}

/**
 * Runs `sql` (one statement that returns rows) read-only, time-limited and rolled back, in one round
 * trip; keeps at most `keep` rows.
 */
export function runInOneTrip(
  client: pg.PoolClient,
  sql: string,
  params: readonly unknown[],
  options: { timeoutMs: number; settings: Readonly<Record<string, string>>; keep: number; types: pg.CustomTypesConfig },
): Promise<OneTripResult> {
  const settings = transactionSettings({ ...options.settings, statement_timeout: String(Math.ceil(options.timeoutMs)) });
  return new Promise((resolve, reject) => {
    client.query(new OneTripRun(sql, params, settings, options.keep, options.types, (error, result) => (error ? reject(error) : resolve(result!))));
  });
}

/** One statement that sets every value for the current transaction only. */
function transactionSettings(values: Readonly<Record<string, string>>): string {
  const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
  return `SELECT ${Object.entries(values)
    .map(([name, value]) => `pg_catalog.set_config(${quote(name)}, ${quote(value)}, true)`)
    .join(', ')}`;
}
