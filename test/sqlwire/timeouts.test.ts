// Silent connections are closed: a signed-in one after the idle time (57P05), one that never signs in
// after at most the authentication time (here the idle time is shorter, so that one).
import net from 'node:net';
import { describe, expect } from 'vitest';
import { createKey } from '../helpers/app.js';
import { METADATA_STORES } from '../helpers/demo-on-stores.js';
import { connect, sqlAppOn } from './sql-app.js';

describe('silent SQL connections', () => {
  const { it, app } = sqlAppOn(METADATA_STORES[0]!, { idleSeconds: 0.5 });

  it('closes a signed-in connection that idles past the idle time, saying why', async () => {
    const client = await connect(app().clientConfig((await createKey(app().t.services, app().ws, 'luminary', 'structured')).value));
    const error = await new Promise<Error & { code?: string }>((resolve) => client.once('error', resolve));
    expect([error.code, error.message]).toEqual(['57P05', 'terminating connection due to idle timeout (1 s)']);
    await client.end().catch(() => undefined);
  });

  it('closes a connection that never sends its start-up', async () => {
    const socket = net.connect({ host: '127.0.0.1', port: app().sql.port });
    let received = '';
    await new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.once('close', () => resolve());
      socket.on('error', () => undefined);
    });
    // A FATAL ErrorResponse first (SQLSTATE 08006), then the server closes.
    expect(received).toMatch(/^E.*SFATAL\0.*C08006\0Mauthentication timeout: the connection did not sign in in time\0/s);
  });
});
