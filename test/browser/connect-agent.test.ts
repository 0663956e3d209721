// Connect an agent in Chromium: the member picks scopes, creates the key, and the configuration the page
// shows works as shown: its URL and Authorization header reach /mcp, whose tool list follows the chosen
// scopes; the stdio configuration is copied as shown, and nothing of the key is kept in the browser.
import { beforeEach, describe, expect, it } from 'vitest';
import { request } from '../helpers/http-client.js';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

interface HttpConfig {
  mcpServers: { analytics: { url: string; headers: { Authorization: string } } };
}
interface StdioConfig {
  mcpServers: { analytics: { command: string; args: string[]; env: { SVC_MCP_URL: string; SVC_API_KEY: string } } };
}

describe.skipIf(!hasChromium)('Connect an agent in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  it('creates a key with the chosen scopes and shows configurations that reach /mcp', async () => {
    const { page } = h;
    await h.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`${h.base}/connect-agent`);
    await page.getByLabel('Key name').fill('desktop agent');
    await page.getByLabel(/^ask:/).check();
    await page.getByLabel(/^content:read:/).uncheck();
    await page.getByRole('button', { name: 'Create key and configuration' }).click();

    const http = JSON.parse((await page.getByLabel('HTTP configuration').textContent())!) as HttpConfig;
    const stdio = JSON.parse((await page.getByLabel('Stdio configuration').textContent())!) as StdioConfig;
    const server = http.mcpServers.analytics;
    expect(server.url).toBe(`${h.base}/mcp`);
    expect(stdio.mcpServers.analytics).toMatchObject({ command: 'npx', args: ['svc', 'mcp'], env: { SVC_MCP_URL: server.url, SVC_API_KEY: server.headers.Authorization.replace('Bearer ', '') } });
    await h.screenshot('connect-agent');

    await page.getByRole('button', { name: 'Copy stdio configuration' }).click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(stdio);

    const listed = await request(server.url, {
      method: 'POST',
      headers: { ...server.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      ca: h.cert,
    });
    expect(listed.status, listed.body).toBe(200);
    const names = (JSON.parse(listed.body) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
    expect(names).toContain('ask');
    expect(names).toContain('query');
    expect(names).not.toContain('run_scene');

    await page.getByRole('button', { name: 'Done, hide the key' }).click();
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(server.headers.Authorization.slice(-10));
    expect(cspViolations(h)).toEqual([]);
  });
});
