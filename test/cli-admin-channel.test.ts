// `svc` beside a running server on the embedded store: the server owns the store, so the CLI's store
// commands are sent to it over its admin channel and run there. A real server in this process on a
// fresh data dir, the CLI's main() in-process, and the same commands run on their own against a
// second data dir without a server, to compare what both print and how they exit.
import { readFileSync, rmSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelFileOf, readChannelFile } from '../src/cli/admin-channel-client.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startServer, type StartedServer } from '../src/main.js';
import { svcInProcess, type SvcResult } from './helpers/cli.js';
import { request } from './helpers/http-client.js';

const PASSWORD = 'a long enough password';
const served = mkdtempSync(path.join(tmpdir(), 'svc-channel-'));
const alone = mkdtempSync(path.join(tmpdir(), 'svc-alone-'));
const channelFile = path.join(served, 'metadata.channel');
const envOf = (dir: string) => ({ SVC_DATA_DIR: dir, SVC_SQL_PORT: 'off', LOG_LEVEL: 'warn' });
const serverEnv = { ...envOf(served), PORT: '0', TLS: 'off', SVC_DEMO: 'off', LOG_LEVEL: 'info' };

let server: StartedServer | undefined;
let log = '';

async function start(): Promise<StartedServer> {
  const logger = createLogger('info', { write: (line: string) => void (log += line) });
  return startServer(loadConfig(serverEnv), logger);
}

beforeAll(async () => {
  server = await start();
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(served, { recursive: true, force: true });
  rmSync(alone, { recursive: true, force: true });
});

/** Ids, key values and generated passwords differ between two stores; the rest must not. */
function comparable(result: SvcResult): SvcResult {
  const normal = (text: string) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
      .replace(/svc_[a-z]+_[0-9a-f]+/g, '<key>')
      .replace(/password: +\S+ +\(shown once\)/, 'password: <generated> (shown once)');
  return { code: result.code, stdout: normal(result.stdout), stderr: normal(result.stderr) };
}

/** Every store command, each answer taken as printed; ids come from the answers before. */
async function everyCommand(dir: string): Promise<SvcResult[]> {
  const results: SvcResult[] = [];
  const svc = async (...args: string[]) => {
    const result = await svcInProcess(args, envOf(dir));
    results.push(result);
    return result;
  };
  const first = await svc('users', 'create', '--email', 'Ops@Acme.test', '--role', 'luminary', '--new-workspace', 'Acme', '--password', PASSWORD);
  const acme = /workspace: +([0-9a-f-]{36})/.exec(first.stdout)![1]!;
  await svc('users', 'create', '--email', 'ana@acme.test', '--workspace', acme);
  await svc('users', 'create', '--email', 'ops@acme.test', '--workspace', acme, '--role', 'viewer');
  await svc('users', 'create', '--email', 'ops@acme.test');
  await svc('users', 'list', '--workspace', acme);
  await svc('users', 'set-role', '--email', 'ana@acme.test', '--role', 'editor');
  await svc('workspaces', 'set-plan', '--workspace', acme, '--plan', 'enterprise');
  await svc('workspaces', 'list');
  const key = await svc('keys', 'create', '--email', 'ops@acme.test', '--surface', 'structured', '--name', 'etl', '--scopes', 'query');
  await svc('keys', 'list', '--email', 'ops@acme.test');
  await svc('keys', 'revoke', '--email', 'ops@acme.test', '--id', /key ([0-9a-f-]{36})/.exec(key.stdout)![1]!);
  await svc('keys', 'list', '--email', 'ghost@acme.test');
  await svc('model', 'deploy', 'demo/model', '--project', 'demo', '--email', 'ops@acme.test', '--message', 'first');
  await svc('model', 'validate', 'demo/model', '--against-content', '--project', 'demo', '--email', 'ops@acme.test');
  await svc('users', 'remove', '--email', 'ana@acme.test');
  return results;
}

describe('svc beside a running server on the embedded store', () => {
  it('opens a channel on loopback whose secret file only the owner may read, and no channel with PostgreSQL', () => {
    expect(server!.adminChannel!.file).toBe(channelFile);
    expect(statSync(channelFile).mode & 0o777).toBe(0o600);
    const channel = readChannelFile(channelFile)!;
    expect(channel).toEqual({ pid: process.pid, port: server!.adminChannel!.port, secret: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(channelFileOf(loadConfig({ ...envOf(served), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }))).toBeUndefined();
  });

  it('runs every store command in the server, printing and exiting as the command does on its own', async () => {
    const throughServer = await everyCommand(served);
    const onItsOwn = await everyCommand(alone);
    expect(throughServer.map(comparable)).toEqual(onItsOwn.map(comparable));
    // Not all successes: the comparison covers refusals and usage mistakes too.
    expect(throughServer.map((r) => r.code)).toEqual([0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]);
    expect(throughServer[0]!.stdout).toMatch(/^user: +ops@acme\.test \([0-9a-f-]{36}\)\nworkspace: .* \(Acme\), team plan\nrole: +luminary\n$/);
    expect(throughServer[1]!.stdout).toMatch(/password: +\S{20,} +\(shown once\)/);
    expect(throughServer[3]!.stderr).toBe('svc: --workspace or --new-workspace is required\n');
    expect(throughServer[12]!.stdout).toMatch(/Deployed 5 file\(s\) to demo; changed nodes: customers, order_items, orders, products/);

    // The server's own API sees the user the command created, with the password given.
    const base = `http://127.0.0.1:${server!.port}`;
    const login = await request(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@acme.test', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(JSON.parse(login.body)).toMatchObject({ workspace: { name: 'Acme', plan: 'enterprise' }, role: 'luminary' });

    // The log names each command and its exit status, never an option value or the secret.
    expect(log).toMatch(/"command":"svc users create","exitCode":0,"msg":"svc command run for the admin channel"/);
    expect(log).toMatch(/"command":"svc keys list","exitCode":2/);
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(readChannelFile(channelFile)!.secret);
  }, 240_000);

  it('answers migrate without touching the store', async () => {
    expect(await svcInProcess(['migrate'], envOf(served))).toEqual({ code: 0, stdout: 'The server applied migrations at start; nothing to do.\n', stderr: '' });
  }, 60_000);

  it('runs nothing for a request without the secret: 401', async () => {
    const { port, secret } = readChannelFile(channelFile)!;
    const url = `http://127.0.0.1:${port}/commands`;
    const command = JSON.stringify({ command: 'users', sub: 'create', values: { email: 'intruder@acme.test', 'new-workspace': 'Intruders' } });
    const post = (headers: Record<string, string>) => request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: command });
    const wrong = await post({ authorization: `Bearer ${'0'.repeat(64)}` });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toEqual({ error: expect.any(String) });
    expect((await post({ authorization: `Bearer ${secret.slice(0, -1)}` })).status).toBe(401);
    expect((await post({})).status).toBe(401);
    expect((await request(url, { headers: { authorization: `bearer ${secret}` } })).status).toBe(401);
    expect((await svcInProcess(['workspaces', 'list'], envOf(served))).stdout).not.toContain('Intruders');

    // With the secret: a request that is not a command is refused as such, and the command runs.
    expect((await request(url, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(404);
    expect((await post({ authorization: `Bearer ${secret}`, 'content-type': 'text/plain' })).status).toBe(200);
    const garbled = await request(url, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{"command":"drop"}' });
    expect(garbled.status).toBe(400);
    expect((await svcInProcess(['workspaces', 'list'], envOf(served))).stdout).toContain('Intruders');
  }, 60_000);

  it('keeps refusing (exit 75) when the server owns the store but its channel does not answer', async () => {
    const kept = readFileSync(channelFile, 'utf8');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      writeFileSync(channelFile, JSON.stringify({ ...JSON.parse(kept), port: deadPort }));
      const unanswered = await svcInProcess(['users', 'list', '--workspace', 'x'], envOf(served));
      expect(unanswered.code).toBe(75);
      expect(unanswered.stdout).toBe('');
      expect(unanswered.stderr).toMatch(/is in use by a running server \(PID \d+, since .*\)\. The command was not sent to it: its admin channel \(.*metadata\.channel\) did not answer \(ECONNREFUSED\)\.\nNothing was changed: /);

      rmSync(channelFile);
      const absent = await svcInProcess(['users', 'list', '--workspace', 'x'], envOf(served));
      expect(absent.code).toBe(75);
      expect(absent.stderr).toMatch(/is in use by a running server .*\nNothing was changed: .*has no admin channel to run it/);
    } finally {
      writeFileSync(channelFile, kept, { mode: 0o600 });
    }
  }, 60_000);

  it('removes the secret at stop, after which commands open the store themselves; a new start makes a new secret', async () => {
    const before = readChannelFile(channelFile)!.secret;
    await server!.close();
    server = undefined;
    expect(() => statSync(channelFile)).toThrow(/ENOENT/);
    const listed = await svcInProcess(['workspaces', 'list'], envOf(served));
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/enterprise +1 member\(s\), 1 luminary +Acme/);

    server = await start();
    expect(statSync(channelFile).mode & 0o777).toBe(0o600);
    expect(readChannelFile(channelFile)!.secret).not.toBe(before);
  }, 120_000);
});
