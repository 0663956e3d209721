// The PostgreSQL-protocol listener: accepts connections, keeps them by process id for CancelRequests
// (which arrive on a connection of their own, naming the process id and secret the server gave), and
// closes them all when the service stops.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { ClientConnection, type ConnectionOptions } from './connection.js';

export interface SqlListenerOptions extends Omit<ConnectionOptions, 'cancel' | 'register' | 'unregister'> {
  readonly port: number;
  readonly host: string;
}

export interface SqlListener {
  readonly port: number;
  /** Connections open now (started or not). */
  readonly connections: number;
  close(): Promise<void>;
}

function sameSecret(a: number, b: number): boolean {
  const x = Buffer.alloc(4);
  const y = Buffer.alloc(4);
  x.writeInt32BE(a);
  y.writeInt32BE(b);
  return timingSafeEqual(x, y);
}

export async function startSqlListener(options: SqlListenerOptions): Promise<SqlListener> {
  const byProcessId = new Map<number, ClientConnection>();
  const open = new Set<ClientConnection>();
  const connectionOptions: ConnectionOptions = {
    ...options,
    cancel: (processId, secret) => {
      const target = byProcessId.get(processId);
      if (target && sameSecret(target.secret, secret)) target.cancel();
    },
    register: (connection) => byProcessId.set(connection.processId, connection),
    unregister: (connection) => {
      byProcessId.delete(connection.processId);
      open.delete(connection);
    },
  };
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    open.add(new ClientConnection(socket, connectionOptions));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return open.size;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of [...open]) connection.end();
      await closed;
    },
  };
}
