// The HTTPS rule of surface B and the Secure cookie, over real listening sockets: TLS on (with plain
// HTTP sent to the same port), TLS off, and TLS off behind a proxy that is (or is not) trusted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPlainHttpOnTlsPort } from '../src/http/plain-http-on-tls-port.js';
import { generateSelfSigned } from '../src/runtime-files.js';
import type { Store } from '../src/store/db.js';
import { createKey, openMigratedPglite, PASSWORD, seedWorkspace, startTestApp, type TestApp } from './helpers/app.js';
import { request } from './helpers/http-client.js';
import { PROBES } from './helpers/probe-routes.js';
import { machineEnv } from './helpers/spawned-server.js';

const started: TestApp[] = [];

async function listening(options: Parameters<typeof startTestApp>[0]) {
  // Every instance shares one embedded store: only the HTTP setup differs between them.
  const t = await startTestApp({ ...options, store });
  started.push(t);
  if (options?.tls) answerPlainHttpOnTlsPort(t.app.server); // as `svc serve` does (src/main.ts)
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
  store = await openMigratedPglite();
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

/** Sends raw bytes and collects everything the server says until it closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(5_000, () => reject(new Error('the server kept the connection open')));
    socket.write(bytes);
  });
}

/** A TCP connection that sends its first bytes one at a time, to split the TLS handshake's first record. */
function tricklingSocket(port: number): Duplex {
  const socket = net.connect({ host: '127.0.0.1', port });
  socket.setNoDelay(true);
  let sent = 0;
  const duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      const pieces: Buffer[] = [];
      let rest = chunk;
      while (sent + pieces.length < 3 && rest.length > 1) [pieces[pieces.length], rest] = [rest.subarray(0, 1), rest.subarray(1)];
      pieces.push(rest);
      sent += pieces.length;
      const next = () => {
        const piece = pieces.shift();
        if (!piece) return done();
        socket.write(piece, () => setTimeout(next, 20));
      };
      next();
    },
    final(done) {
      socket.end(done);
    },
    destroy(error, done) {
      socket.destroy();
      done(error);
    },
  });
  socket.on('data', (chunk: Buffer) => duplex.push(chunk));
  socket.on('end', () => duplex.push(null));
  socket.on('error', (error) => duplex.destroy(error));
  return duplex;
}

describe('plain HTTP to the HTTPS port', () => {
  let port: number;
  let auth: Record<string, string>;
  beforeAll(async () => {
    ({ port, auth } = await listening({ tls: { key: pems.private, cert: pems.cert } }));
  });

  it('gets 403 https_required naming the HTTPS address, not an empty reply, with or without a key', async () => {
    for (const headers of [auth, {}]) {
      const response = await request(`http://127.0.0.1:${port}${PROBES.workspace}?x=1`, { headers });
      expect(response.status).toBe(403);
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toEqual({
        error: `HTTPS is required: this port serves HTTPS only; use https://127.0.0.1:${port}${PROBES.workspace}?x=1`,
        code: 'https_required',
      });
    }
    const post = await request(`http://127.0.0.1:${port}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a@b.c"}' });
    expect(post.status).toBe(403);
    const head = await request(`http://127.0.0.1:${port}/healthz`, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([403, '']);
  });

  it('redirects a browser navigating to the same address over HTTPS, temporarily, and never a request with a key', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await request(`http://localhost:${port}/docs?tab=1`, { headers: html });
    expect(page.status).toBe(307);
    expect(page.headers.location).toBe(`https://localhost:${port}/docs?tab=1`);
    expect(page.headers['cache-control']).toBe('no-store');
    const withKey = await request(`http://localhost:${port}/docs`, { headers: { ...html, ...auth } });
    expect(withKey.status).toBe(403);
    const post = await request(`http://localhost:${port}/docs`, { method: 'POST', headers: html });
    expect(post.status).toBe(403);
  });

  it('keeps a port the client did not name, and never puts a bad Host header or an odd path in an answer', async () => {
    const noPort = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: example.test\r\nAccept: text/html\r\n\r\n');
    expect(noPort).toMatch(/^HTTP\/1\.1 307 /);
    expect(noPort).toMatch(/\r\nlocation: https:\/\/example\.test:80\/\r\n/i);
    const badHost = await rawExchange(port, 'GET /x HTTP/1.1\r\nHost: evil.test/@x\r\nAccept: text/html\r\n\r\n');
    expect(badHost).toMatch(/^HTTP\/1\.1 403 /);
    expect(badHost).toContain('{"error":"HTTPS is required: this port serves HTTPS only","code":"https_required"}');
    const absolute = await rawExchange(port, 'GET http://other.test/x HTTP/1.1\r\nHost: 127.0.0.1:1\r\nAccept: text/html\r\n\r\n');
    expect(absolute).toMatch(/\r\nlocation: https:\/\/127\.0\.0\.1:1\/\r\n/i);
  });

  it('closes a connection that speaks neither, and HTTPS carries on, even with a handshake split into single bytes', async () => {
    expect(await rawExchange(port, 'hello\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 |^$/);
    expect(await rawExchange(port, '\x00\x01\x02')).toMatch(/^HTTP\/1\.1 400 |^$/);
    const split = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ socket: tricklingSocket(port), servername: 'localhost', ca: pems.cert }, () => resolve(socket));
      socket.once('error', reject);
    });
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      split.on('data', (chunk: Buffer) => (text += chunk.toString()));
      split.on('end', () => resolve(text));
      split.write(`GET ${PROBES.workspace} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect((await request(`https://localhost:${port}${PROBES.workspace}`, { headers: auth, ca: pems.cert })).status).toBe(200);
  });
});

describe('svc serve with TLS', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-tls-serve-'));
  let child: ReturnType<typeof spawn> | undefined;
  // Also when the test times out: a server left running would outlive the test run.
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers plain HTTP on its HTTPS port with 403 https_required', async () => {
    child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...machineEnv(), SVC_DATA_DIR: dir, SVC_DEMO: 'off', PORT: '0', SVC_SQL_PORT: '0', LOG_LEVEL: 'warn' },
    });
    const server = child;
    try {
      let output = '';
      server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const deadline = performance.now() + 90_000; // a first start migrates a fresh embedded store: slow on a busy machine
      while (!/listening on https:\/\/127\.0\.0\.1:\d+/.test(output) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const servedPort = Number(/listening on https:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);
      const plain = await request(`http://127.0.0.1:${servedPort}/healthz`);
      expect([plain.status, JSON.parse(plain.body).code]).toEqual([403, 'https_required']);
      const secure = await request(`https://127.0.0.1:${servedPort}/healthz`, { ca: readFileSync(path.join(dir, 'tls', 'cert.pem'), 'utf8') });
      expect(secure.status).toBe(200);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  }, 120_000);
});
