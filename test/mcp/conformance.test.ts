// The MCP conformance suite (@modelcontextprotocol/conformance) against this server, for the scenarios
// that apply to any server. The suite sends no Authorization header, so it runs against a test-only
// app that mounts the same endpoint at /conformance/mcp with a principal injected (a real key's,
// resolved once): production's /mcp and its auth are untouched. Scenarios left out and why:
// - logging-set-level: the server sends no log messages, so it does not offer the logging capability;
// - tools-call-*, prompts-get-*, resources-*, completion-complete, elicitation-*, json-schema-2020-12:
//   they call the reference server's own fixtures (test_simple_text, test_image_content…).
// server-sse-polling and server-sse-multiple-streams run and pass with warnings: the server is
// stateless and answers JSON, so there is no session id and no stream to resume.
// The suite needs Node.js 22+: it runs on the Node that npm scripts use (node_modules/.bin/node).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activePrincipal } from '../../src/http/auth.js';
import type { Principal } from '../../src/identity/principal.js';
import { hashToken } from '../../src/identity/tokens.js';
import { mcpEndpoint } from '../../src/mcp/routes.js';
import { buildApp } from '../../src/app.js';
import { createKey, seedWorkspace, startTestApp, type TestApp } from '../helpers/app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const CLI = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'server-sse-polling', 'server-sse-multiple-streams'];

const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-mcp-conformance-'));
let t: TestApp;
let conformanceApp: Awaited<ReturnType<typeof buildApp>>;
let url: string;

beforeAll(async () => {
  t = await startTestApp({ env: { SVC_DATA_DIR: dataDir } });
  const ws = await seedWorkspace(t.services);
  const key = await createKey(t.services, ws, 'tracer', 'structured', { scopes: ['query', 'models:read', 'content:read', 'ask', 'sql'] });
  const principal: Principal = activePrincipal(await t.services.keyResolver.resolve(hashToken(key.value)));
  // Test-only: the endpoint with an injected principal, beside (never instead of) the real one.
  conformanceApp = await buildApp({
    services: t.services,
    extraRoutes: async (app) => {
      await app.register(mcpEndpoint, { services: t.services, prefix: '/conformance', policy: { auth: 'public' }, principalOf: () => principal });
    },
  });
  const address = await conformanceApp.listen({ port: 0, host: '127.0.0.1' });
  url = `${address.replace('127.0.0.1', 'localhost')}/conformance/mcp`;
}, 60_000);
afterAll(async () => {
  await conformanceApp?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('MCP conformance', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    // Asynchronous: the server answering the suite runs in this process.
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(NODE, [CLI, 'server', '--url', url, '--scenario', scenario], { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}\n${stderr}` }),
      );
    });
    const { output } = run;
    expect(run.code, output).toBe(0);
    expect(output).not.toMatch(/FAILURE/);
  });
});
