// Cancelling what a PostgreSQL client is running, from outside: the protocol's CancelRequest goes over
// a separate, short-lived connection. pg implements it (Client#cancel) but neither declares it in its
// types nor listens for errors on that connection, and an 'error' event nobody listens to ends the
// process: a server that cannot be reached for the cancel must cost a failed cancel, nothing more.
import pg from 'pg';

interface Cancellable {
  cancel(target: pg.Client, query: unknown): void;
  connection: { on(event: 'error', listener: (error: unknown) => void): unknown; end(): void };
}

/** Asks the server to cancel the statement `client` is running now (no-op when it runs none). */
export function cancelRunning(config: pg.ClientConfig, client: pg.Client): void {
  const canceller = new pg.Client(config) as unknown as Cancellable;
  canceller.connection.on('error', () => undefined);
  canceller.cancel(client, (client as unknown as { activeQuery: unknown }).activeQuery);
}
