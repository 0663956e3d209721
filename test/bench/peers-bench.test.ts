// The peer benchmark's own parts: finding an installed Cube, the token Cube checks, the CPU time read
// from /proc for a process the bench did not write, and the child servers' announcement line.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstJsonLine } from '../../bench/child-ready.js';
import { installedCube, procCpuMicros, signToken } from '../../bench/cube-peer.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'peers-bench-test-'));
  dirs.push(dir);
  return dir;
}
function installPackage(dir: string, name: string, version: string) {
  mkdirSync(path.join(dir, 'node_modules', name), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
}

describe('finding Cube Core', () => {
  it('is undefined when no directory is named, or the directory lacks the server or the PostgreSQL driver', () => {
    expect(installedCube(undefined)).toBeUndefined();
    const dir = scratch();
    expect(installedCube(dir)).toBeUndefined();
    installPackage(dir, '@cubejs-backend/server', '0.35.81');
    expect(installedCube(dir)).toBeUndefined();
  });

  it("is the installed server's version when both packages are there", () => {
    const dir = scratch();
    installPackage(dir, '@cubejs-backend/server', '0.35.81');
    installPackage(dir, '@cubejs-backend/postgres-driver', '0.35.81');
    expect(installedCube(dir)).toBe('0.35.81');
  });
});

describe("the token Cube's default check accepts", () => {
  it('is an HS256 JWT signed with the API secret over its header and claims', () => {
    const token = signToken('the secret', 1_700_000_000);
    const [header, claims, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toEqual({ iat: 1_700_000_000 });
    expect(signature).toBe(createHmac('sha256', 'the secret').update(`${header}.${claims}`).digest('base64url'));
    expect(signToken('another secret', 1_700_000_000).split('.')[2]).not.toBe(signature);
  });
});

describe('CPU time from /proc', () => {
  it.runIf(process.platform === 'linux')("agrees with the process's own cpuUsage, to the kernel's tick", () => {
    const fromProc = procCpuMicros(process.pid)!;
    const own = process.cpuUsage();
    const spentSoFar = () => {
      const { user, system } = process.cpuUsage(own);
      return user + system;
    };
    // Spend 150 ms of CPU so that both clocks move: counted in CPU time, not wall time, which a busy
    // machine shares with other processes (capped, should cpuUsage never move).
    const cap = performance.now() + 10_000;
    while (spentSoFar() < 150_000 && performance.now() < cap);
    const spentProc = procCpuMicros(process.pid)! - fromProc;
    const spentOwn = process.cpuUsage(own);
    expect(spentProc).toBeGreaterThan(100_000);
    // Ticks are 10 ms: each reading may lag by one.
    expect(Math.abs(spentProc - (spentOwn.user + spentOwn.system))).toBeLessThanOrEqual(30_000);
  });

  it('is undefined for a process that does not exist', () => {
    expect(procCpuMicros(2 ** 30)).toBeUndefined();
  });
});

describe("a child server's announcement", () => {
  const child = (script: string) => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });

  it('is its first JSON line, after other output, and later output is drained', async () => {
    const server = child(`console.log('starting'); console.log(JSON.stringify({ port: 1234 })); process.stdout.write('x'.repeat(1 << 20)); console.log('{"late": true}');`);
    await expect(firstJsonLine(server)).resolves.toEqual({ port: 1234 });
    // A child whose pipe were not read would never exit after writing a megabyte.
    await expect(new Promise((resolve) => server.once('exit', resolve))).resolves.toBe(0);
  });

  it('fails, saying why, when the child exits without one', async () => {
    await expect(firstJsonLine(child('process.exit(3)'), () => 'no database')).rejects.toThrow(/exited with 3 no database/);
  });
});
