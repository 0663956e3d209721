// Vaults and scenes managed in Chromium on the Content page: a vault is created, renamed and shared (a
// member added, their access changed, removed); deleting it while it holds a scene is refused with the
// server's reason, and succeeds once the scene has moved out. A scene is renamed, given another chart
// type and a filter (shown in words), drawn as the saved type, and deleted after a confirmation. A scene
// saved without a sort is given one (a measure descending, then the month) and a row limit, and runs so.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { figure, monthName, readGrid } from './answer-grid.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('vaults and scenes in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  let cookie = '';
  beforeEach(() => {
    h = harness();
  });
  beforeAll(async () => {
    h = harness();
    cookie = await sessionCookie(h);
  });

  async function apiCall(method: 'GET' | 'POST', url: string, payload?: object) {
    const response = await h.t.app.inject({ method, url: `/api${url}`, headers: { cookie, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  }

  it('creates, renames and shares a vault, and deletes it only once it is empty', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    const vaults = page.getByRole('region', { name: 'Vaults' });
    await vaults.getByLabel('Vault name').fill('Marketing');
    await vaults.getByRole('button', { name: 'Create vault' }).click();
    await vaults.getByRole('status').filter({ hasText: 'Vault Marketing created.' }).waitFor();

    await vaults.getByRole('button', { name: 'Rename vault Marketing' }).click();
    await vaults.getByLabel('New name').fill('Growth');
    await vaults.getByRole('button', { name: 'Save vault' }).click();
    await vaults.getByRole('status').filter({ hasText: 'Vault renamed to Growth.' }).waitFor();

    // Members: the luminary picks a workspace member, then lowers their access and removes them.
    await vaults.getByRole('button', { name: 'Members of vault Growth' }).click();
    const members = page.getByRole('region', { name: 'Members of Growth' });
    const editor = h.ws.members.editor.email;
    await members.getByLabel('Member to add').selectOption({ label: `editor (${editor})` });
    await members.getByLabel('Access', { exact: true }).selectOption('edit');
    await members.getByRole('button', { name: 'Add member' }).click();
    await members.getByRole('status').filter({ hasText: `${editor} now has edit access.` }).waitFor();
    const vaultId = ((await apiCall('GET', '/vaults')) as { vaults: Array<{ id: string; name: string }> }).vaults.find((v) => v.name === 'Growth')!.id;
    const listed = async () => ((await apiCall('GET', `/vaults/${vaultId}/members`)) as { members: Array<{ email: string; access: string }> }).members;
    expect((await listed()).find((m) => m.email === editor)?.access).toBe('edit');
    await members.getByLabel(`Access of ${editor}`).selectOption('view');
    await members.getByRole('status').filter({ hasText: `${editor} now has view access.` }).waitFor();
    expect((await listed()).find((m) => m.email === editor)?.access).toBe('view');
    await members.getByRole('button', { name: `Remove ${editor} from Growth` }).click();
    await members.getByRole('status').filter({ hasText: `${editor} is no longer a member.` }).waitFor();
    expect((await listed()).some((m) => m.email === editor)).toBe(false);

    // A scene kept in the vault: deleting it is refused, with the server's reason.
    await apiCall('POST', '/scenes', { name: 'Kept scene', vault: vaultId, node: 'orders', dimensions: ['channel'], measures: ['order_count'], visualization: { type: 'bar' } });
    await page.reload();
    await vaults.getByRole('button', { name: 'Delete vault Growth' }).click();
    await vaults.getByRole('group', { name: 'Confirm deleting vault Growth' }).getByRole('button', { name: 'Yes, delete' }).click();
    const refusal = vaults.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/holds 1 scene.*move them out/s);
    await refusal.getByText('code: vault_not_empty').waitFor();

    // Moved out in the browser, the scene leaves the vault empty: now it goes.
    const scenes = page.getByRole('region', { name: 'Scenes' });
    await scenes.getByRole('button', { name: 'Edit scene Kept scene' }).click();
    const form = scenes.getByRole('form', { name: 'Edit scene Kept scene' });
    const personal = (await form.getByLabel('Vault', { exact: true }).locator('option').allTextContents()).find((t) => t.endsWith("'s vault"))!;
    await form.getByLabel('Vault', { exact: true }).selectOption({ label: personal });
    await form.getByRole('button', { name: 'Save scene' }).click();
    await scenes.getByRole('status').filter({ hasText: `Scene Kept scene saved and moved to ${personal}.` }).waitFor();
    await vaults.getByRole('button', { name: 'Delete vault Growth' }).click();
    await vaults.getByRole('button', { name: 'Yes, delete' }).click();
    await vaults.getByRole('status').filter({ hasText: 'Vault Growth deleted.' }).waitFor();
    expect(((await apiCall('GET', '/vaults')) as { vaults: Array<{ name: string }> }).vaults.map((v) => v.name)).not.toContain('Growth');
    await h.screenshot('content-vaults');
  });

  it('gives a scene saved without a sort one, and a row limit: the saved scene runs in that order', async () => {
    const { page } = h;
    const query = { node: 'orders', dimensions: ['created_at.month'], measures: ['order_count'] };
    const scene = (await apiCall('POST', '/scenes', { name: 'Busiest months', ...query, visualization: { type: 'bar' } })).scene as { id: string };
    await page.goto(`${h.base}/content`);
    const scenes = page.getByRole('region', { name: 'Scenes' });
    await scenes.getByRole('button', { name: 'Edit scene Busiest months' }).click();
    const form = scenes.getByRole('form', { name: 'Edit scene Busiest months' });
    const first = form.getByRole('group', { name: 'Sort 1' });
    expect(await first.getByLabel('Sort by').inputValue()).toBe('');
    await first.getByLabel('Sort by').selectOption({ label: 'Orders' });
    await first.getByLabel('Direction').selectOption({ label: 'Descending' });
    await form.getByRole('button', { name: 'Add sort field' }).click();
    const second = form.getByRole('group', { name: 'Sort 2' });
    await second.getByLabel('Then by').selectOption({ label: 'Ordered at (month)' });
    await second.getByLabel('Direction').selectOption({ label: 'Ascending' });
    await form.getByLabel('Row limit').fill('3');
    await form.getByRole('button', { name: 'Save scene' }).click();
    await scenes.getByRole('status').filter({ hasText: 'Scene Busiest months saved.' }).waitFor();

    const sorts = [{ field: 'order_count', direction: 'desc' }, { field: 'created_at.month', direction: 'asc' }];
    const saved = (await apiCall('GET', `/scenes/${scene.id}`)).scene as { sorts: unknown[]; limit: number | null };
    expect(saved).toMatchObject({ sorts, limit: 3 });

    // The rows drawn are the three busiest months, busiest first, as every month's counts say.
    const every = (await apiCall('POST', '/query', { ...query, limit: 1000 })) as { data: Array<Record<string, unknown>> };
    expect(every.data.length).toBeGreaterThan(3);
    const expected = every.data
      .map((r) => ({ month: String(r['created_at.month']), count: Number(r.order_count) }))
      .sort((a, b) => b.count - a.count || a.month.localeCompare(b.month))
      .slice(0, 3);
    // The server's own order (months ascending) is not this one, so the sort is what put them so.
    expect(expected.map((r) => r.month)).not.toEqual(every.data.slice(0, 3).map((r) => String(r['created_at.month'])));
    await scenes.getByRole('button', { name: 'Run scene Busiest months' }).click();
    const drawn = await readGrid(page, 'Busiest months rows');
    expect(drawn.map((r) => ({ month: r['Ordered at (month)'], count: figure(r.Orders) }))).toEqual(expected.map((r) => ({ month: monthName(r.month), count: r.count })));

    // Opened again, the form shows the saved order and limit.
    await scenes.getByRole('button', { name: 'Edit scene Busiest months' }).click();
    expect(await form.getByRole('group', { name: 'Sort 1' }).getByLabel('Sort by').inputValue()).toBe('order_count');
    expect(await form.getByRole('group', { name: 'Sort 2' }).getByLabel('Then by').inputValue()).toBe('created_at.month');
    expect(await form.getByLabel('Row limit').inputValue()).toBe('3');
    await h.screenshot('scene-edit-sort-limit');
    expect(cspViolations(h)).toEqual([]);
  });

  it('edits a scene: name, chart type and a filter said in words; draws the saved type; deletes it after asking', async () => {
    const { page } = h;
    const scene = (await apiCall('POST', '/scenes', { name: 'Orders by region', node: 'orders', dimensions: ['ship_region'], measures: ['order_count'], visualization: { type: 'bar' } })).scene as { id: string };
    await page.goto(`${h.base}/content`);
    const scenes = page.getByRole('region', { name: 'Scenes' });
    await scenes.getByRole('button', { name: 'Edit scene Orders by region' }).click();
    const form = scenes.getByRole('form', { name: 'Edit scene Orders by region' });
    await form.getByLabel('Scene name').fill('Orders in Europe');
    await form.getByLabel('Chart type').selectOption({ label: 'Pie' });
    await form.getByRole('button', { name: 'Add filter' }).click();
    const filter = form.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption({ label: 'Region' });
    await filter.getByLabel('Operator').selectOption({ label: 'is one of' });
    await filter.getByLabel('Value').fill('Europe, Asia Pacific');
    await form.getByRole('button', { name: 'Save scene' }).click();
    await scenes.getByRole('status').filter({ hasText: 'Scene Orders in Europe saved.' }).waitFor();

    const item = scenes.getByRole('listitem', { name: 'Scene Orders in Europe' });
    await item.getByText('Filters: Region is one of Europe, Asia Pacific').waitFor();
    const saved = (await apiCall('GET', `/scenes/${scene.id}`)).scene as { name: string; filters: unknown[]; visualization: { type: string } };
    expect(saved).toMatchObject({ name: 'Orders in Europe', filters: [{ field: 'ship_region', operator: 'in', value: ['Europe', 'Asia Pacific'] }], visualization: { type: 'pie' } });

    // Run, it is drawn as the saved type with only the filtered rows.
    await scenes.getByRole('button', { name: 'Run scene Orders in Europe' }).click();
    const rows = scenes.getByRole('table', { name: 'Orders in Europe rows' });
    await rows.getByRole('cell', { name: 'Europe', exact: true }).waitFor();
    expect(await rows.getByRole('cell', { name: 'North America' }).count()).toBe(0);
    expect(await scenes.locator('figure[data-chart-type]').first().getAttribute('data-chart-type')).toBe('pie');

    // Deleting asks first; Cancel keeps it, Yes deletes it.
    await item.getByRole('button', { name: 'Delete scene Orders in Europe' }).click();
    await item.getByRole('group', { name: 'Confirm deleting scene Orders in Europe' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await apiCall('GET', `/scenes/${scene.id}`)).toBeTruthy();
    await item.getByRole('button', { name: 'Delete scene Orders in Europe' }).focus();
    await page.keyboard.press('Enter');
    await item.getByRole('button', { name: 'Yes, delete' }).focus();
    await page.keyboard.press('Enter');
    await scenes.getByRole('status').filter({ hasText: 'Scene Orders in Europe deleted.' }).waitFor();
    const gone = await h.t.app.inject({ method: 'GET', url: `/api/scenes/${scene.id}`, headers: { cookie } });
    expect(gone.statusCode).toBe(404);
    expect(cspViolations(h)).toEqual([]);
  });
});
