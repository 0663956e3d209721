// Asks PostgreSQL, without executing anything, whether a statement returns rows: Parse + Describe
// (statement) + Sync on the unnamed statement. Statements that return no rows are refused before they
// run, which closes what a read-only transaction alone lets through: `COPY … TO '/file'` (written on
// the server's disk), `PREPARE`, `LOCK`, `SET`, `DO`, `CALL`.
import type pg from 'pg';
import type { Field } from './postgres-one-trip.js';

export type StatementShape = 'rows' | 'no-rows';

type PgConnection = pg.Connection & {
  parse(query: { text: string; name?: string }, more: boolean): void;
  describe(message: { type: 'S' | 'P'; name: string }, more: boolean): void;
  sync(): void;
  once(event: 'noData', listener: () => void): void;
  removeListener(event: 'noData', listener: () => void): void;
};

class DescribeStatement implements pg.Submittable {
  private shape: StatementShape = 'no-rows';
  private fields: readonly Field[] = [];
  private connection: PgConnection | undefined;

  constructor(
    private readonly text: string,
    private readonly done: (error: Error | null, shape?: StatementShape, fields?: readonly Field[]) => void,
  ) {}

  submit(connection: pg.Connection): void {
    const con = connection as PgConnection;
    this.connection = con;
    con.once('noData', this.onNoData);
    con.parse({ text: this.text }, true);
    con.describe({ type: 'S', name: '' }, true);
    con.sync();
  }

  private readonly onNoData = () => {
    this.shape = 'no-rows';
  };

  // The client routes the backend's messages to its active query through these handlers.
  handleRowDescription(message: { fields?: readonly Field[] }): void {
    this.shape = 'rows';
    this.fields = (message.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
    this.connection?.removeListener('noData', this.onNoData);
  }

  handleReadyForQuery(): void {
    this.connection?.removeListener('noData', this.onNoData);
    this.done(null, this.shape, this.fields);
  }

  handleError(error: Error): void {
    // Sync was already sent: the server answers ReadyForQuery, which the client consumes on its own.
    this.connection?.removeListener('noData', this.onNoData);
    this.done(error);
  }

  handleEmptyQuery(): void {}
  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handlePortalSuspended(): void {}
}

export function describeStatement(client: pg.PoolClient, text: string): Promise<StatementShape> {
  return new Promise((resolve, reject) => {
    client.query(new DescribeStatement(text, (error, shape) => (error ? reject(error) : resolve(shape!))));
  });
}

/** The columns the statement returns (names and type OIDs), or undefined when it returns no rows. */
export function describeColumns(client: pg.PoolClient, text: string): Promise<readonly Field[] | undefined> {
  return new Promise((resolve, reject) => {
    client.query(new DescribeStatement(text, (error, shape, fields) => (error ? reject(error) : resolve(shape === 'rows' ? fields : undefined))));
  });
}
