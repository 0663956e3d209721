// The HTTPS rule of surface B and the Secure cookie, over real listening sockets: TLS on, TLS off,
// and TLS off behind a proxy that is (or is not) trusted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSelfSigned } from '../src/runtime-files.js';
import { openStore, type Store } from '../src/store/db.js';
import { migrate } from '../src/store/migrate.js';
import { createKey, PASSWORD, seedWorkspace, startTestApp, type TestApp } from './helpers/app.js';
import { request } from './helpers/http-client.js';
import { PROBES } from './helpers/probe-routes.js';

const started: TestApp[] = [];

async function listening(options: Parameters<typeof startTestApp>[0]) {
  // Every instance shares one embedded store: only the HTTP setup differs between them.
  const t = await startTestApp({ ...options, store });
  started.push(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const ws = await seedWorkspace(t.services);
  const key = await createKey(t.services, ws, 'viewer', 'workspace');
  return { t, port, ws, auth: { authorization: `Bearer ${key.value}` } };
}

let pems: Awaited<ReturnType<typeof generateSelfSigned>>;
let store: Store;
beforeAll(async () => {
  pems = await generateSelfSigned();
  store = await openStore({ kind: 'pglite' });
  await migrate(store);
});
afterAll(async () => {
  await Promise.all(started.map((t) => t.close()));
  await store.close();
});

describe('TLS on (the default)', () => {
  it('serves surface B over HTTPS and sets a Secure session cookie', async () => {
    const { port, ws, auth } = await listening({ tls: { key: pems.private, cert: pems.cert } });
    const base = `https://localhost:${port}`;
    const ok = await request(`${base}${PROBES.workspace}`, { headers: auth, ca: pems.cert });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).workspace_id).toBe(ws.id);

    const login = await request(`${base}/api/auth/login`, {
      method: 'POST',
      ca: pems.cert,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ws.members.viewer.email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/svc_session=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
  });

  it('the certificate generated for first start is trusted for localhost and 127.0.0.1', async () => {
    const { port, auth } = await listening({ tls: { key: pems.private, cert: pems.cert } });
    const response = await request(`https://127.0.0.1:${port}${PROBES.workspace}`, { headers: auth, ca: pems.cert });
    expect(response.status).toBe(200);
  });
});

describe('TLS off', () => {
  it('refuses surface B over plain HTTP with 403, before looking at the key', async () => {
    const { port, auth } = await listening({ env: { TLS: 'off' } });
    for (const headers of [auth, {}]) {
      const response = await request(`http://127.0.0.1:${port}${PROBES.workspace}`, { headers });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toEqual({ error: 'HTTPS is required', code: 'https_required' });
    }
    // Other surfaces still answer over plain HTTP (a proxy terminates TLS for them).
    expect((await request(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it('counts X-Forwarded-Proto: https from a trusted proxy', async () => {
    const { port, auth } = await listening({ env: { TLS: 'off', TRUST_PROXY: 'true' } });
    const viaProxy = await request(`http://127.0.0.1:${port}${PROBES.workspace}`, { headers: { ...auth, 'x-forwarded-proto': 'https' } });
    expect(viaProxy.status).toBe(200);
    const plain = await request(`http://127.0.0.1:${port}${PROBES.workspace}`, { headers: { ...auth, 'x-forwarded-proto': 'http' } });
    expect(plain.status).toBe(403);
  });

  it('ignores X-Forwarded-Proto when the proxy is not trusted', async () => {
    const { port, auth } = await listening({ env: { TLS: 'off' } });
    const spoofed = await request(`http://127.0.0.1:${port}${PROBES.workspace}`, { headers: { ...auth, 'x-forwarded-proto': 'https' } });
    expect(spoofed.status).toBe(403);
  });

  it('trusts only the listed proxy addresses', async () => {
    const { port, auth } = await listening({ env: { TLS: 'off', TRUST_PROXY: '10.0.0.1' } });
    const spoofed = await request(`http://127.0.0.1:${port}${PROBES.workspace}`, { headers: { ...auth, 'x-forwarded-proto': 'https' } });
    expect(spoofed.status).toBe(403);
  });
});
