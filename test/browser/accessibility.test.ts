// Accessibility and the Content-Security-Policy on every page of the console, in the states a member sees
// them: axe-core (WCAG 2 A and AA, best practices) finds no serious or critical violation, a Tab walk
// from the top reaches every visible control and each has an accessible name, and no page makes the
// browser report a policy violation (the harness fails the test on one). First, each check is shown to
// fail on a page that breaks it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_ROUTES } from '../../src/surfaces/web/client-routes.js';
import { request } from '../helpers/http-client.js';
import { authorizationParams, pkcePair, REDIRECT_URI } from '../helpers/oauth-flow.js';
import { startReceiver } from '../webhooks/receiver.js';
import { audit, auditFindings } from './audit.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';
import { keyboardFindings } from './keyboard-reach.js';

describe.skipIf(!hasChromium)('accessibility of every page in Chromium', () => {
  // A webhook receiver on loopback (answering 500, so the delivery log has a failed attempt to show).
  const harness = signedInConsole({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  let h: ConsoleHarness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeEach(() => {
    h = harness();
  });
  /** One pass of the delivery worker, with retries an hour apart (the test clock does not move). */
  const deliverOnce = () => h.t.services.deliveryWorker({ retryDelaysMs: [3_600_000] }).runOnce();

  // Something in every list of the Content page: a vault, scenes, a mosaic, a signal, a schedule, a webhook
  // with a delivery.
  beforeAll(async () => {
    h = harness();
    receiver = await startReceiver([500]);
    const cookie = await sessionCookie(h);
    const call = async (url: string, payload: object) => {
      const response = await h.t.app.inject({ method: 'POST', url: `/api${url}`, headers: { cookie, 'content-type': 'application/json' }, payload });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    await call('/vaults', { name: 'Marketing' });
    const byRegion = (await call('/scenes', { name: 'Orders by region', node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], visualization: { type: 'bar' } })).scene;
    const total = (await call('/scenes', { name: 'All orders', node: 'orders', measures: ['order_count'], visualization: { type: 'number' } })).scene;
    const byChannel = (await call('/scenes', { name: 'Orders by channel', node: 'orders', dimensions: ['channel'], measures: ['order_count'], visualization: { type: 'pie' } })).scene;
    const tile = (id: string, sceneId: string, x: number, y: number) => ({ id, kind: 'scene', scene_id: sceneId, layout: { x, y, w: 6, h: 4 } });
    const words = (id: string, kind: 'heading' | 'text', text: string, y: number) => ({ id, kind, text, layout: { x: 0, y, w: 12, h: 1 } });
    const tiles = [words('title', 'heading', 'Sales overview', 0), tile('regions', byRegion.id, 0, 1), tile('total', total.id, 6, 1), tile('channels', byChannel.id, 0, 5), words('note', 'text', 'Fresh on every run.', 9)];
    await call('/mosaics', { name: 'Sales board', tiles, filters: [{ field: 'ship_region', operator: 'in', value: ['Europe'] }] });
    await call('/signals', { name: 'Few orders', watch: { scene_id: total.id }, condition: 'less_than', threshold: 10, schedule: { interval_seconds: 3600 } });
    const endpoint = (await h.t.services.webhooks.create(h.ws.id, { url: receiver.url, events: ['*'], description: 'Ops alerts' })).endpoint.id;
    await call('/delivery-schedules', { name: 'Daily orders', target: { kind: 'scene', id: byRegion.id }, endpoint_id: endpoint, cron: '0 9 * * *', timezone: 'UTC' });
    // The demo's deploy recorded model.deployed before the endpoint existed: a pass settles it first.
    await deliverOnce();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** Every finding of both checks on the page as it stands, reported under `name` without stopping the test. */
  async function check(name: string): Promise<void> {
    expect.soft(await auditFindings(h.page), `axe on ${name}`).toEqual([]);
    expect.soft(await keyboardFindings(h.page), `keyboard on ${name}`).toEqual([]);
  }

  async function visit(path: string, ready: string | RegExp): Promise<void> {
    await h.page.goto(`${h.base}${path}`);
    await h.page.getByRole('heading', { name: ready, level: 1 }).waitFor();
  }

  it('each check fails on a page that breaks it', async () => {
    const { page } = h;
    await visit('/glossary', 'Glossary');
    // Added over the DevTools protocol: a button without a name, one that drops the focus, and a div
    // claiming a button's role without a tab stop.
    await page.evaluate(() => {
      const unnamed = document.createElement('button');
      unnamed.className = 'unnamed';
      document.querySelector('main')!.append(unnamed);
      const unreachable = document.createElement('button');
      unreachable.textContent = 'Unreachable';
      unreachable.addEventListener('focus', () => unreachable.blur());
      document.querySelector('main')!.append(unreachable);
      const clickOnly = document.createElement('div');
      clickOnly.setAttribute('role', 'button');
      clickOnly.textContent = 'Click only';
      document.querySelector('main')!.append(clickOnly);
    });
    await expect(audit(page, 'the glossary with a nameless button')).rejects.toThrow(/button-name \(critical\).*\.unnamed/);
    const keyboard = await keyboardFindings(page);
    expect(keyboard.some((f) => f.startsWith('no accessible name: <button class="unnamed">'))).toBe(true);
    expect(keyboard.some((f) => f.startsWith('not reached by Tab: <button>Unreachable'))).toBe(true);
    expect(keyboard.some((f) => f.startsWith('not reached by Tab: <div role="button">Click only'))).toBe(true);

    // A style attribute the policy refuses (the evaluation itself is not governed by the policy).
    await page.evaluate(() => document.querySelector('main')!.setAttribute('style', 'color: red'));
    // Both reports arrive, in either order: the page's event and Chromium's console line.
    await expect.poll(() => cspViolations(h).length).toBe(2);
    const [event, line] = h.takeCspViolations();
    expect(event).toMatch(/^style-src-attr blocked inline.* on https:\/\/127\.0\.0\.1:\d+\/glossary$/);
    expect(line).toMatch(/^error: .*inline style.*Content Security Policy directive 'style-src/);
  });

  it('walks past fields that take several Tabs each to the last control', async () => {
    const { page } = h;
    await visit('/glossary', 'Glossary');
    // Date, time and date-time fields stop on each of their parts: twelve of them hold over forty stops.
    await page.evaluate(() => {
      const main = document.querySelector('main')!;
      ['date', 'datetime-local', 'time', 'month'].forEach((type) => {
        for (let i = 0; i < 3; i++) {
          const field = document.createElement('input');
          field.type = type;
          field.setAttribute('aria-label', `${type} ${i}`);
          main.append(field);
        }
      });
      const last = document.createElement('button');
      last.textContent = 'The last control';
      main.append(last);
    });
    expect(await keyboardFindings(page)).toEqual([]);
  });

  it('the pages of the page list, as they open', async () => {
    const pages: Array<[string, string | RegExp]> = [
      ['/', /^Welcome/],
      ['/keys', 'API keys'],
      ['/connect-agent', 'Connect an agent'],
      ['/connections', 'Connections'],
      ['/sql', 'SQL editor'],
      ['/cml-builder', 'CML builder'],
      ['/ask', 'Ask'],
      ['/model', 'Model'],
      ['/explore', 'Explore'],
      ['/content', 'Content'],
      ['/rollups', 'Rollups'],
      ['/users', 'Users and attributes'],
      ['/glossary', 'Glossary'],
      ['/tutorial', 'Tutorial: your first dashboard'],
      ['/no/such/page', 'Page not found'],
    ];
    // Every page of the page list is scanned: one added to CLIENT_ROUTES without its entry here fails.
    expect(CLIENT_ROUTES.map((r) => r.path).filter((p) => !pages.some(([path]) => path === p))).toEqual([]);
    for (const [path, heading] of pages) {
      await visit(path, heading);
      await check(path);
    }
  });

  it('the content page with its lists, forms, editors and confirmations open', async () => {
    const { page } = h;
    await visit('/content', 'Content');
    await page.getByRole('listitem', { name: 'Signal Few orders' }).waitFor();
    await page.getByRole('listitem', { name: 'Schedule Daily orders' }).waitFor();
    await check('content with items');

    const vaults = page.getByRole('region', { name: 'Vaults' });
    await vaults.getByRole('button', { name: 'Rename vault Marketing' }).click();
    await vaults.getByRole('button', { name: 'Members of vault Marketing' }).click();
    await page.getByRole('region', { name: 'Members of Marketing' }).getByLabel('Member to add').waitFor();
    await vaults.getByRole('button', { name: 'Delete vault Marketing' }).click();
    await check('content: a vault renamed, its members, its deletion asked');

    const scenes = page.getByRole('region', { name: 'Scenes' });
    await scenes.getByRole('button', { name: 'Edit scene Orders by region' }).click();
    const sceneForm = scenes.getByRole('form', { name: 'Edit scene Orders by region' });
    await sceneForm.getByRole('button', { name: 'Add filter' }).click();
    await scenes.getByRole('button', { name: 'Run scene All orders' }).click();
    await scenes.getByRole('button', { name: 'Run scene Orders by channel' }).click();
    await scenes.getByRole('table', { name: 'Orders by channel rows' }).waitFor();
    await check('content: a scene edited with a filter, others run');

    const mosaics = page.getByRole('region', { name: 'Mosaics' });
    await mosaics.getByRole('button', { name: 'Open mosaic Sales board' }).click();
    await page.getByLabel('Mosaic Sales board').getByRole('table', { name: 'Orders by region rows' }).waitFor();
    await check('content: a mosaic open');
    await mosaics.getByRole('button', { name: 'Edit mosaic Sales board' }).click();
    await mosaics.getByRole('form', { name: /Sales board/ }).getByRole('group', { name: /^Tile 1: / }).waitFor();
    await check('content: the mosaic editor');

    await page.getByRole('button', { name: 'New signal' }).click();
    const signal = page.getByRole('listitem', { name: 'Signal Few orders' });
    await signal.getByRole('button', { name: 'Evaluate Few orders now' }).click();
    await signal.getByRole('status', { name: 'Evaluation of Few orders' }).waitFor();
    await signal.getByRole('button', { name: 'History of Few orders' }).click();
    await signal.getByRole('button', { name: 'Edit Few orders' }).click();
    await check('content: signal forms, evaluation and history');

    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.getByRole('form', { name: 'New schedule' }).waitFor();
    await page.getByRole('listitem', { name: 'Schedule Daily orders' }).getByRole('button', { name: 'Delete Daily orders' }).click();
    const hook = page.getByRole('listitem', { name: `Webhook ${receiver.url}` });
    await hook.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: /test event/i }).waitFor();
    await deliverOnce();
    // Sending a test event opens the endpoint's delivery log; a refresh shows the attempt just made.
    await hook.getByRole('button', { name: `Refresh deliveries of ${receiver.url}` }).click();
    await hook.getByRole('table', { name: `Deliveries to ${receiver.url}` }).getByRole('cell', { name: '500', exact: true }).waitFor();
    await hook.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('region', { name: `Signing secret of ${receiver.url}` }).waitFor();
    await check('content: schedule form, deletion asked, webhook log and new secret');
    await h.screenshot('accessibility-content');
  });

  it('the query pages with results, errors and details open', async () => {
    const { page } = h;
    await visit('/sql', 'SQL editor');
    await page.getByLabel('Schema browser').getByText('shop.orders', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'SQL' }).click();
    await page.keyboard.type('SELECT status, count(*) AS n FROM shop.orders GROUP BY status');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('table', { name: 'Results' }).waitFor();
    await check('sql editor with results and history');
    await page.getByRole('textbox', { name: 'SQL' }).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('SELECT nope FROM shop.orders');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Enter');
    await page.getByRole('alert').first().waitFor();
    await check('sql editor with an error');

    await visit('/cml-builder', 'CML builder');
    await page.getByLabel('Reveal').selectOption({ label: 'sales (commerce)' });
    await page.getByRole('checkbox', { name: 'orders', exact: true }).check();
    await page.getByLabel('Dimensions (comma-separated)').fill('channel');
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('table', { name: 'Result rows' }).getByRole('cell', { name: 'marketplace' }).waitFor();
    await check('cml builder with results');

    await visit('/explore', 'Explore');
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'Channel', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('cell', { name: 'marketplace' }).first().waitFor();
    await check('explore with a filter and results');
    // The chart's legend hides and shows a series on a click: the keyboard does the same, and says which.
    const series = page.getByLabel(/^Chart: /).getByRole('button', { name: 'Orders' });
    expect(await series.getAttribute('aria-pressed')).toBe('true');
    await series.focus();
    await page.keyboard.press('Enter');
    expect(await series.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Space');
    expect(await series.getAttribute('aria-pressed')).toBe('true');
    await h.screenshot('accessibility-explore');
    await page.getByRole('checkbox', { name: 'Compare with another period' }).check();
    const compare = page.getByRole('group', { name: 'Compare to' });
    await compare.getByLabel('Time dimension').selectOption('created_at');
    await compare.getByLabel('Current period').selectOption({ label: 'Last month' });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor();
    await check('explore comparing two periods');
    await page.getByRole('checkbox', { name: 'Compare with another period' }).uncheck();
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await check('explore saving a scene');

    await visit('/ask', 'Ask');
    await page.getByLabel('Question').fill('How many orders were there?');
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.getByRole('region', { name: 'Provenance' }).waitFor();
    await page.getByText('Show SQL').click();
    await check('ask with an answer and its SQL');
    await h.screenshot('accessibility-ask');

    await visit('/model', 'Model');
    await page.getByLabel('File').selectOption('orders.cml');
    await page.getByRole('textbox', { name: 'CML' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nnode broken {\n');
    await page.getByRole('list', { name: 'Diagnostics' }).waitFor();
    await check('model with a diagnostic');
  });

  it('keys, agents, connections and members with their forms and secrets', async () => {
    const { page } = h;
    await visit('/keys', 'API keys');
    await page.getByLabel('Key name').fill('audited key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('region', { name: 'New key' }).getByText(/Bearer /).first().waitFor();
    await check('keys with a new key shown');
    await page.getByRole('button', { name: 'Done, hide the key' }).click();
    await page.getByRole('row', { name: /audited key/ }).getByRole('button', { name: 'Revoke audited key' }).click();
    await check('keys with a revocation asked');

    await visit('/connect-agent', 'Connect an agent');
    await page.getByLabel('Key name').fill('audited agent');
    await page.getByRole('button', { name: 'Create key and configuration' }).click();
    await page.getByLabel('HTTP configuration').waitFor();
    await check('connect an agent with its configuration');

    await visit('/connections', 'Connections');
    await page.getByRole('button', { name: /^Test / }).first().click();
    await page.getByRole('status').filter({ hasText: /: (connected|failed)/ }).waitFor();
    await page.getByRole('button', { name: /^Edit / }).first().click();
    await check('connections with a test result and an edit form');

    await visit('/users', 'Users and attributes');
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('E-mail').fill('audit@example.com');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByLabel('One-time password of audit@example.com').waitFor();
    await page.getByRole('button', { name: 'Remove audit@example.com' }).click();
    await check('users with an invitation and a removal asked');
  });

  it("an application's consent page and its grant, then the sign-in page signed out and refused", async () => {
    const { page } = h;
    const registered = await request(`${h.base}/oauth/register`, {
      method: 'POST',
      ca: h.cert,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Audited agent', redirect_uris: [REDIRECT_URI] }),
    });
    expect(registered.status).toBe(201);
    const clientId = (JSON.parse(registered.body) as { client_id: string }).client_id;
    const pkce = pkcePair();
    const params = authorizationParams(h.base, clientId, pkce, { scope: 'query' });
    await page.goto(`${h.base}/oauth/authorize?${new URLSearchParams(params)}`);
    await page.getByRole('heading', { name: 'Authorize an application', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await check('oauth consent');

    // Approved and exchanged, the application is listed on the keys page with its revocation.
    let landed: URL | undefined;
    await h.context.route(`${new URL(REDIRECT_URI).origin}/**`, async (route) => {
      landed = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You may close this window.' });
    });
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((url) => url.origin === new URL(REDIRECT_URI).origin);
    const exchanged = await request(`${h.base}/oauth/token`, {
      method: 'POST',
      ca: h.cert,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: landed!.searchParams.get('code')!, code_verifier: pkce.verifier, redirect_uri: REDIRECT_URI, resource: `${h.base}/mcp` }).toString(),
    });
    expect(exchanged.status).toBe(200);
    await visit('/keys', 'API keys');
    const row = page.getByRole('region', { name: 'Authorized applications' }).getByRole('row', { name: /Audited agent/ });
    await row.getByRole('button', { name: 'Revoke Audited agent' }).click();
    await check('keys with an authorized application, its revocation asked');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the analytics console' }).waitFor();
    await check('sign-in');
    await page.getByLabel('E-mail').fill(h.ws.members.luminary.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await check('sign-in refused');
    await visit('/no/such/page', 'Page not found');
    await check('not found, signed out');
  });
});
