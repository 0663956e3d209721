// An editor never types an id, in Chromium: a delivery schedule's endpoint is picked from the
// workspace's endpoints (by description and host: a chat endpoint's URL path is its credential and is
// never shown), and a member is added to a vault the editor manages by finding them by name or e-mail.
// Both lists hold only the editor's own workspace, and only id, name and e-mail of each member.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedWorkspace, signIn, type SeededWorkspace } from '../helpers/app.js';
import { cspViolations, hasChromium, signInThroughPage, signedInConsole, type ConsoleHarness } from './harness.js';

const CHAT_PATH = '/services/T000/B000/not-for-editors';

describe.skipIf(!hasChromium)('pickers instead of ids for an editor in Chromium', () => {
  const harness = signedInConsole({ env: { SVC_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
  let h: ConsoleHarness;
  let other: SeededWorkspace;
  let editor = '';
  let viewer = '';
  const endpoints: Record<string, string> = {};
  beforeEach(() => {
    h = harness();
  });

  async function call(method: 'GET' | 'POST', url: string, cookie: string, payload?: object) {
    return h.t.app.inject({ method, url: `/api${url}`, headers: { cookie, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
  }

  beforeAll(async () => {
    h = harness();
    const hooks = h.t.services.webhooks;
    endpoints.chat = (await hooks.create(h.ws.id, { url: `http://127.0.0.1:9${CHAT_PATH}`, events: ['model.deployed'], format: 'chat', description: 'Team chat' })).endpoint.id;
    endpoints.plain = (await hooks.create(h.ws.id, { url: 'http://127.0.0.1:10/receive', events: ['model.deployed'] })).endpoint.id;
    other = await seedWorkspace(h.t.services);
    endpoints.elsewhere = (await hooks.create(other.id, { url: 'http://127.0.0.1:11/theirs', events: ['model.deployed'], description: 'Their chat' })).endpoint.id;
    editor = await signIn(h.t.app, h.ws.members.editor.email);
    viewer = await signIn(h.t.app, h.ws.members.viewer.email);
    const scene = await call('POST', '/scenes', editor, { name: 'My orders', node: 'orders', measures: ['order_count'] });
    expect(scene.statusCode, scene.body).toBe(201);
    await h.page.getByRole('button', { name: 'Sign out' }).click();
    await signInThroughPage(h, h.ws.members.editor.email, '/content');
  });

  it("lists the workspace's endpoints for editors without their URL's path, and for no one else's workspace", async () => {
    const listed = await call('GET', '/delivery-endpoints', editor);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().endpoints).toEqual([
      { id: endpoints.chat, description: 'Team chat', host: '127.0.0.1:9', format: 'chat', enabled: true },
      { id: endpoints.plain, description: '', host: '127.0.0.1:10', format: 'standard', enabled: true },
    ]);
    expect(listed.body).not.toContain('not-for-editors');
    expect((await call('GET', '/delivery-endpoints', viewer)).statusCode).toBe(403);
  });

  it('creates a schedule with an endpoint picked from a list, not typed', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    const picker = form.getByLabel('To endpoint');
    await expect.poll(() => picker.locator('option').allTextContents()).toEqual(['Team chat (chat · 127.0.0.1:9)', '127.0.0.1:10 (signed JSON)']);
    expect(await form.getByRole('textbox', { name: /endpoint/i }).count()).toBe(0);
    await form.getByLabel('Name').fill('Mine to the receiver');
    await form.getByLabel('Send').selectOption({ label: 'Scene: My orders' });
    await picker.selectOption({ label: '127.0.0.1:10 (signed JSON)' });
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByText('Schedule Mine to the receiver is created.').waitFor();
    // The schedule says where it sends by the endpoint's name, not its id.
    await page.getByRole('listitem', { name: 'Schedule Mine to the receiver' }).getByText('0 9 * * 1-5 (UTC) · to 127.0.0.1:10 (signed JSON)').waitFor();
    const schedules = (await call('GET', '/delivery-schedules', editor)).json().schedules as Array<{ name: string; endpoint_id: string }>;
    expect(schedules.find((s) => s.name === 'Mine to the receiver')?.endpoint_id).toBe(endpoints.plain);
    await h.screenshot('editor-picks-endpoint');
  });

  it('adds a member to a vault the editor manages by finding them by name or e-mail', async () => {
    const { page } = h;
    const vaults = page.getByRole('region', { name: 'Vaults' });
    await vaults.getByLabel('Vault name').fill('Editors');
    await vaults.getByRole('button', { name: 'Create vault' }).click();
    await vaults.getByRole('status').filter({ hasText: 'Vault Editors created.' }).waitFor();
    await vaults.getByRole('button', { name: 'Members of vault Editors' }).click();
    const members = page.getByRole('region', { name: 'Members of Editors' });
    const vaultId = ((await call('GET', '/vaults', editor)).json().vaults as Array<{ id: string; name: string }>).find((v) => v.name === 'Editors')!.id;

    // The choices: this workspace's members, id, name and e-mail only, the same the picker offers.
    const choices = await call('GET', `/vaults/${vaultId}/member-choices`, editor);
    expect(choices.statusCode, choices.body).toBe(200);
    const people = choices.json().members as Array<Record<string, string>>;
    expect(people.map((m) => m.email).sort()).toEqual(Object.values(h.ws.members).map((m) => m.email).sort());
    for (const m of people) expect(Object.keys(m).sort()).toEqual(['email', 'id', 'name']);
    const options = () => members.getByLabel('Member to add').locator('option').allTextContents();
    // The editor manages the vault already: everyone else is offered.
    const others = people.filter((m) => m.email !== h.ws.members.editor.email).map((m) => `${m.name} (${m.email})`).sort();
    await expect.poll(async () => (await options()).slice(1).sort()).toEqual(others);
    const offered = await options();
    expect(offered[0]).toBe('—');
    expect(offered.join(' ')).not.toContain(other.members.viewer.email);

    await members.getByLabel('Find a member').fill(h.ws.members.viewer.email.slice(0, 12));
    await expect.poll(options).toEqual(['—', `viewer (${h.ws.members.viewer.email})`]);
    await members.getByRole('button', { name: 'Add member' }).click();
    await members.getByRole('status').filter({ hasText: `${h.ws.members.viewer.email} now has view access.` }).waitFor();
    const listed = (await call('GET', `/vaults/${vaultId}/members`, editor)).json().members as Array<{ user_id: string; access: string }>;
    expect(listed).toContainEqual(expect.objectContaining({ user_id: h.ws.members.viewer.id, access: 'view' }));
    await h.screenshot('editor-picks-member');

    // A viewer of the vault, a member of another workspace: neither may list the choices.
    expect((await call('GET', `/vaults/${vaultId}/member-choices`, viewer)).statusCode).toBe(403);
    const stranger = await signIn(h.t.app, other.members.luminary.email);
    expect((await call('GET', `/vaults/${vaultId}/member-choices`, stranger)).statusCode).toBe(404);
    expect(cspViolations(h)).toEqual([]);
  });
});
