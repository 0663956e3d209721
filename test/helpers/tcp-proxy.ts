// A TCP proxy on loopback between the service and a real server (PostgreSQL, MariaDB, Redis), which a
// test can break the way networks and servers break: cut every open connection mid-stream, refuse new
// ones (server down), or accept and never answer (server hung). Nothing is simulated beyond the
// socket: the protocol on both sides is the real one.
import net from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

export interface TcpProxy {
  /** The loopback port to connect to instead of the target's. */
  readonly port: number;
  /** Connections accepted since the proxy started (forwarded or not). */
  readonly accepted: number;
  /** Destroys every open connection on both sides, as a server crash or a network cut would. */
  cutAll(): void;
  /** forward (default), refuse (close new connections at once) or blackhole (accept, never answer). */
  setMode(mode: ProxyMode): void;
  /**
   * Every open connection stops forwarding, both ways, and stays open: a server that hangs (or a network
   * that drops everything) under established connections. New connections follow the mode.
   */
  hangAll(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  let accepted = 0;
  const open = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    // A cut surfaces as ECONNRESET on the other side; the proxy itself must not crash on it.
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    accepted++;
    track(client);
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    if (mode === 'blackhole') return; // held open, read from, never answered
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => (pairs.delete(pair), upstream.destroy()));
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    get accepted() {
      return accepted;
    },
    cutAll() {
      for (const socket of open) socket.destroy();
    },
    setMode(next) {
      mode = next;
    },
    hangAll() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        // Read and dropped, never delivered.
        client.resume();
        upstream.resume();
      }
      pairs.clear();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
