// The `svc` command over an embedded store in a fresh data dir, which the tests of a describe block share,
// in order. Most steps call the CLI's main() in-process (test/helpers/cli.ts); the store's lock, exit
// statuses and first start are checked on real processes of the binary (each start costs seconds).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { svcInProcess } from './helpers/cli.js';
import { request } from './helpers/http-client.js';
import { machineEnv } from './helpers/spawned-server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const ENV = { PATH: process.env.PATH, HOME: process.env.HOME, ...machineEnv(), SVC_DATA_DIR: dataDir, SVC_SQL_PORT: '0', LOG_LEVEL: 'warn' };

/** `svc` as the shell runs it: node bin/svc.js in a process of its own. */
function svcProcess(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['bin/svc.js', ...args], { cwd: ROOT, env: { ...ENV, ...env }, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `svc` in-process, with this file's environment. */
function svc(args: string[], env: Record<string, string> = {}) {
  return svcInProcess(args, { ...ENV, ...env });
}

/** `svc serve` on plain HTTP without the demo; resolves `listening` once its banner is out. */
function startServer(dir: string) {
  const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
    cwd: ROOT,
    env: { ...ENV, SVC_DATA_DIR: dir, PORT: '0', TLS: 'off', SVC_DEMO: 'off' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = (async () => {
    const deadline = performance.now() + 60_000;
    while (!/listening on http/.test(output)) {
      if (performance.now() > deadline || child.exitCode !== null) throw new Error(`the server did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { child, listening, exited };
}

let acme = '';
let betaId = '';

describe('svc CLI', () => {
  it('stops on a bad setting with one clear line', async () => {
    const result = await svc(['migrate'], { PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: Invalid configuration: PORT /)]);
  });

  it('prints usage for an unknown command', () => {
    const result = svcProcess(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Usage: svc <command>/);
  });

  it('migrates, creates a user and manages keys', async () => {
    expect((await svc(['migrate'])).stdout).toMatch(/Applied: 0001_platform\.sql, 0002_models\.sql, 0003_query_history\.sql, 0004_history_question_api\.sql/);
    expect((await svc(['migrate'])).stdout).toMatch(/up to date/);

    const user = await svc(['users', 'create', '--email', 'Ops@Acme.test', '--role', 'luminary', '--new-workspace', 'Acme']);
    expect(user.code).toBe(0);
    expect(user.stdout).toMatch(/user: +ops@acme\.test/);
    expect(user.stdout).toMatch(/workspace: +[0-9a-f-]{36} \(Acme\), team plan/);
    expect(user.stdout).toMatch(/password: +\S{20,} +\(shown once\)/);
    acme = /workspace: +([0-9a-f-]{36})/.exec(user.stdout)![1]!;

    const created = await svc(['keys', 'create', '--email', 'ops@acme.test', '--surface', 'structured', '--name', 'etl', '--scopes', 'query,users:read']);
    expect(created.code).toBe(0);
    const value = created.stdout.split('\n')[0]!;
    expect(value).toMatch(/^svc_api_[0-9a-f]{64}$/);
    const id = /key ([0-9a-f-]{36})/.exec(created.stdout)![1]!;

    const listed = await svc(['keys', 'list', '--email', 'ops@acme.test']);
    expect(listed.stdout).toContain(value.slice(0, 16));
    expect(listed.stdout).not.toContain(value);
    expect(listed.stdout).toMatch(/structured +active +etl/);

    expect((await svc(['keys', 'revoke', '--email', 'ops@acme.test', '--id', id])).code).toBe(0);
    expect((await svc(['keys', 'list', '--email', 'ops@acme.test'])).stdout).toMatch(/structured +revoked/);

    const deployed = await svc(['model', 'deploy', 'demo/model', '--project', 'demo', '--email', 'ops@acme.test', '--message', 'first']);
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toMatch(/Deployed 5 file\(s\) to demo; changed nodes: customers, order_items, orders, products/);

    const unknown = await svc(['keys', 'list', '--email', 'ghost@acme.test']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No user ghost@acme\.test/);
    // Nine commands, each opening PGlite from disk: seconds on a busy two-core machine.
  }, 120_000);

  it('adds an existing user to another workspace without touching their password or role, and changes a plan', async () => {
    // Already a member: refused, naming the command that changes a role; no password is printed.
    const again = await svc(['users', 'create', '--email', 'ops@acme.test', '--workspace', acme, '--role', 'viewer']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      `svc: ops@acme.test is already a member of Acme (${acme}), as luminary. ` +
        `Change a role with: svc users set-role --email ops@acme.test --role <role> --workspace ${acme}`,
    );
    expect(again.stdout).toBe('');

    // An existing user joins another workspace: their password is kept and none is shown.
    const joined = await svc(['users', 'create', '--email', 'ops@acme.test', '--new-workspace', 'Beta', '--plan', 'free']);
    expect(joined.code).toBe(0);
    expect(joined.stdout).toMatch(/user: +ops@acme\.test \([0-9a-f-]{36}\) +\(existing user, password unchanged\)/);
    expect(joined.stdout).toMatch(/workspace: +[0-9a-f-]{36} \(Beta\), free plan\nrole: +luminary\n$/);
    expect(joined.stdout).not.toMatch(/password:/);
    const beta = /workspace: +([0-9a-f-]{36})/.exec(joined.stdout)![1]!;

    expect((await svc(['workspaces', 'set-plan', '--workspace', beta, '--plan', 'team'])).stdout).toBe(
      `Workspace ${beta} (Beta) moved from the free to the team plan.\n`,
    );
    betaId = beta;
  }, 120_000);
});

describe('the embedded store has one owner', () => {
  it('refuses svc commands and a second server while a server runs, and takes over the lock a killed server left', async () => {
    const lockFile = path.join(dataDir, 'metadata.lock');
    const server = startServer(dataDir);
    try {
      await server.listening;
      expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: server.child.pid, holder: 'server', command: 'svc serve' });

      // A command of another process runs in the server, through its admin channel.
      const channelFile = path.join(dataDir, 'metadata.channel');
      const sent = await svc(['keys', 'create', '--email', 'ops@acme.test', '--surface', 'question', '--name', 'through the server']);
      expect(sent.stderr).toBe('');
      expect(sent.code).toBe(0);
      expect(sent.stdout).toMatch(/^svc_sk_[0-9a-f]{64}\n\(key [0-9a-f-]{36}, question: shown once, store it now\)\n$/);

      // A server without the channel (as one of an earlier version): the change would go to a copy the
      // server never sees: refused, and nothing written.
      rmSync(channelFile);
      const refused = svcProcess(['keys', 'create', '--email', 'ops@acme.test', '--surface', 'question', '--name', 'lost']);
      expect(refused.code).toBe(75);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`is in use by a running server (PID ${server.child.pid}, since `);
      expect(refused.stderr).toMatch(/Nothing was changed: .*\(console API: \/api\/keys, \/api\/members, \/api\/workspace/);
      expect(refused.stderr).toMatch(/has no admin channel to run it/);

      const second = await svc(['serve'], { PORT: '0', TLS: 'off', SVC_DEMO: 'off' });
      expect(second.code).toBe(75);
      expect(second.stderr).toMatch(/Two processes cannot share an embedded store/);
      expect(server.child.exitCode).toBeNull();

      server.child.kill('SIGKILL');
      await server.exited;
    } finally {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    }
    // The lock is left behind, its PID gone: the next command takes it over, says so, and its change lasts.
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(server.child.pid);
    const added = await svc(['users', 'create', '--email', 'ana@acme.test', '--workspace', acme, '--role', 'luminary', '--password', 'a long enough password']);
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(new RegExp(`took over the lock of the embedded store left by PID ${server.child.pid} \\(\`svc serve\`, since .*\\), which is no longer running`));
    expect(added.stdout).toMatch(/user: +ana@acme\.test .*\nworkspace: .*\nrole: +luminary\n$/);
    // The new luminary lets the first one step down; both changes are in the store for the next process.
    expect((await svc(['users', 'set-role', '--email', 'ops@acme.test', '--role', 'editor', '--workspace', acme])).stdout).toBe(
      `ops@acme.test is now editor (was luminary) in ${acme} (Acme).\n`,
    );
    const workspaces = (await svc(['workspaces', 'list'])).stdout;
    expect(workspaces).toMatch(new RegExp(`^${acme}  team +2 member\\(s\\), 1 luminary +Acme$`, 'm'));
    expect(workspaces).toMatch(new RegExp(`^${betaId}  team +1 member\\(s\\), 1 luminary +Beta$`, 'm'));
    expect(existsSync(lockFile)).toBe(false);
  }, 240_000);
});

describe('svc model validate', () => {
  it('prints file:line:col diagnostics and exits 1 on errors, 0 for the demo model', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-cml-'));
    try {
      writeFileSync(path.join(dir, 'bad.cml'), 'node broken {\n  connection: warehouse\n  table: shop.x\n  dimension a { type: strng }\n}\n');
      const bad = await svc(['model', 'validate', dir]);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(new RegExp(`^${path.join(dir, 'bad.cml')}:4:\\d+: error \\S+ .*strng`, 'm'));
      const demo = await svc(['model', 'validate', 'demo/model']);
      expect(demo.code).toBe(0);
      expect(demo.stdout).toMatch(/0 error\(s\), 0 warning\(s\)/);
      // Warnings about the planner's words: printed with their position, and no failure.
      const words = path.join(dir, 'words');
      mkdirSync(words);
      writeFileSync(
        path.join(words, 'm.cml'),
        'node t {\n  connection: warehouse\n  table: shop.t\n  dimension region { type: string }\n  measure n { type: count }\n}\n' +
          'reveal r {\n  domain: d\n  base: t\n  languages: [en, de]\n  metric n { measure: n  synonyms: [regions] }\n}\n',
      );
      const warned = await svc(['model', 'validate', words]);
      expect(warned.code).toBe(0);
      expect(warned.stdout).toMatch(new RegExp(`^${path.join(words, 'm.cml')}:10:\\d+: warning CML604 `, 'm'));
      expect(warned.stdout).toMatch(new RegExp(`^${path.join(words, 'm.cml')}:11:\\d+: warning CML603 `, 'm'));
      expect(warned.stdout).toMatch(/0 error\(s\), 2 warning\(s\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('first start (svc serve, as npm start runs it)', () => {
  it('creates the demo workspace and admin, serves TLS with a generated certificate, and prints working curl lines', async () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'svc-first-'));
    let lockLeft: boolean | undefined;
    let channelLeft: boolean | undefined;
    const child = spawn(process.execPath, ['bin/svc.js', 'serve'], {
      cwd: ROOT,
      env: { ...ENV, SVC_DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'warn' },
    });
    try {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const deadline = performance.now() + 90_000;
      while (!/Try it:[\s\S]*api\/v1\/workspace/.test(output) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));

      expect(output).toMatch(/Created workspace "Demo" \(Team plan\) with luminary admin@example\.com/);
      expect(output).toMatch(/Demo warehouse: 100,000 orders in .*warehouse\.duckdb/);
      const password = /Generated password \(shown once, keep it\): (\S+)/.exec(output)![1]!;
      const base = /listening on (https:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
      expect(output).toContain(`curl --cacert ${path.join(fresh, 'tls', 'cert.pem')}`);
      const ca = readFileSync(path.join(fresh, 'tls', 'cert.pem'), 'utf8');

      const login = await request(`${base}/api/auth/login`, {
        method: 'POST',
        ca,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password }),
      });
      expect(login.status).toBe(200);
      expect(JSON.parse(login.body)).toMatchObject({ workspace: { name: 'Demo', plan: 'team' }, role: 'luminary' });
      const cookie = String(login.headers['set-cookie']).split(';')[0]!;
      const key = await request(`${base}/api/keys`, {
        method: 'POST',
        ca,
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: 'my workspace key', surface: 'workspace' }),
      });
      const { value } = JSON.parse(key.body);
      const workspace = await request(`${base}/api/v1/workspace`, { ca, headers: { authorization: `Bearer ${value}` } });
      expect(workspace.status).toBe(200);
      expect(JSON.parse(workspace.body).workspace.name).toBe('Demo');
      // The secret key for stored secrets was generated, readable only by its owner.
      expect(readFileSync(path.join(fresh, 'secret.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      expect(existsSync(path.join(fresh, 'metadata.lock'))).toBe(true);
      expect(statSync(path.join(fresh, 'metadata.channel')).mode & 0o777).toBe(0o600);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      lockLeft = existsSync(path.join(fresh, 'metadata.lock'));
      channelLeft = existsSync(path.join(fresh, 'metadata.channel'));
      rmSync(fresh, { recursive: true, force: true });
    }
    // A server stopped with SIGTERM frees its store, and closes its admin channel.
    expect(lockLeft).toBe(false);
    expect(channelLeft).toBe(false);
  }, 120_000);
});
