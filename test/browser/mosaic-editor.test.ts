// A mosaic made and changed in Chromium: a heading, scene tiles, a single-number tile and a text tile
// are added, one is moved with the keyboard, one narrowed and made taller, one removed; a date range and
// a region are added as dashboard filters. Saved, it opens on the grid (after a reload too) with every
// tile at its stored width and height, and the filters reach every tile whose node has the field (the
// region tile shows Europe only); a tile on a node without the field keeps its value and says the filter
// does not apply to it.
// Editing it again and removing the region filter brings the other regions back, each tile naming its
// scene once, a few rows shown whole and more than ten scrolling in the table only; a viewer's own
// filter narrows the open mosaic without being saved.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditFindings } from './audit.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

interface Box { x: number; y: number; width: number; height: number }

describe.skipIf(!hasChromium)('mosaic editor in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  let cookie = '';
  beforeEach(() => {
    h = harness();
  });
  beforeAll(async () => {
    h = harness();
    cookie = await sessionCookie(h);
    const scenes = [
      { name: 'Orders by region', dimensions: ['ship_region'], measures: ['order_count'], visualization: { type: 'bar' } },
      { name: 'All orders', dimensions: [], measures: ['order_count'], visualization: { type: 'number' } },
      { name: 'Orders by month', dimensions: ['created_at.month'], measures: ['order_count'], visualization: { type: 'line' } },
    ];
    for (const scene of scenes) {
      const response = await h.t.app.inject({ method: 'POST', url: '/api/scenes', headers: { cookie, 'content-type': 'application/json' }, payload: { node: 'orders', ...scene } });
      if (response.statusCode !== 201) throw new Error(`${scene.name}: ${response.statusCode} ${response.body}`);
    }
  });

  async function savedMosaic() {
    const list = await h.t.app.inject({ method: 'GET', url: '/api/mosaics', headers: { cookie } });
    const id = (list.json() as { mosaics: Array<{ id: string; name: string }> }).mosaics.find((m) => m.name === 'Sales board')!.id;
    const read = await h.t.app.inject({ method: 'GET', url: `/api/mosaics/${id}`, headers: { cookie } });
    return read.json().mosaic as { tiles: Array<{ kind: string; text?: string; scene?: { name: string }; layout: Box & { w: number; h: number } }>; filters: unknown[] };
  }

  it('builds a dashboard of scene, number, heading and text tiles with filters, drawn at its stored sizes', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    const mosaics = page.getByRole('region', { name: 'Mosaics' });
    await mosaics.getByRole('button', { name: 'New mosaic' }).click();
    const form = mosaics.getByRole('form', { name: 'New mosaic' });
    await form.getByLabel('Mosaic name').fill('Sales board');
    const adder = form.getByRole('group', { name: 'Add a tile' });
    const add = async (kind: string, what: string) => {
      await adder.getByLabel('New tile').selectOption({ label: kind });
      if (kind === 'Text' || kind === 'Heading') await adder.getByLabel('Tile text').fill(what);
      else await adder.getByLabel('Scene').selectOption({ label: what });
      await adder.getByRole('button', { name: 'Add tile' }).click();
    };
    await add('Heading', 'Sales overview');
    await add('Scene (its saved chart)', 'Orders by region (Bars)');
    await adder.getByLabel('New tile').selectOption({ label: 'Single number (a scene saved as Number)' });
    // A single number is a scene saved as Number: only those are offered.
    expect(await adder.getByLabel('Scene').locator('option').allTextContents()).toEqual(['All orders (Number)']);
    await add('Single number (a scene saved as Number)', 'All orders (Number)');
    await add('Text', 'Fresh on every run.');
    await add('Text', 'Scratch');
    await add('Scene (its saved chart)', 'Orders by month (Line)');

    // Keyboard: the number tile moves up before the region tile; the scratch text goes; the text narrows.
    await form.getByRole('button', { name: 'Move All orders up' }).focus();
    await page.keyboard.press('Enter');
    await form.getByRole('button', { name: 'Remove text Scratch' }).click();
    await form.getByLabel('Width of text Fresh on every run.').selectOption({ label: '3 of 12 columns' });
    await form.getByLabel('Height of text Fresh on every run.').selectOption({ label: '4 rows' });
    const order = await form.getByRole('group', { name: /^Tile \d+: / }).evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label')));
    expect(order).toEqual(['Tile 1: heading Sales overview', 'Tile 2: All orders', 'Tile 3: Orders by region', 'Tile 4: text Fresh on every run.', 'Tile 5: Orders by month']);

    // Dashboard filters: a date range on the order time and one region.
    const range = form.getByRole('group', { name: 'Date range (Dashboard filters)' });
    await range.getByLabel('Date field').selectOption({ label: 'Ordered at' });
    await range.getByLabel('From').fill('2000-01-01');
    await range.getByLabel('To').fill('2100-12-31');
    await range.getByRole('button', { name: 'Add date range' }).click();
    const values = form.getByRole('group', { name: 'Dimension values (Dashboard filters)' });
    await values.getByLabel('Dimension').selectOption({ label: 'Region' });
    await values.getByLabel('Values').fill('Europe');
    await values.getByRole('button', { name: 'Add values filter' }).click();
    const said = form.getByRole('list', { name: 'Dashboard filters' });
    await said.getByText('Ordered at is in the date range 2000-01-01 to 2100-12-31').waitFor();
    expect(await said.textContent()).toContain('Region is one of Europe (applies to All orders, Orders by region, Orders by month)');

    await form.getByRole('button', { name: 'Save mosaic' }).click();
    await mosaics.getByRole('status').filter({ hasText: 'Mosaic Sales board saved.' }).waitFor();
    const saved = await savedMosaic();
    expect(saved.tiles.map((t) => [t.scene?.name ?? t.text, t.layout])).toEqual([
      ['Sales overview', { x: 0, y: 0, w: 12, h: 1 }],
      ['All orders', { x: 0, y: 1, w: 3, h: 2 }],
      ['Orders by region', { x: 3, y: 1, w: 6, h: 5 }],
      ['Fresh on every run.', { x: 9, y: 1, w: 3, h: 4 }],
      ['Orders by month', { x: 0, y: 6, w: 6, h: 5 }],
    ]);
    expect(saved.filters).toEqual([
      { field: 'created_at', operator: 'inDateRange', value: ['2000-01-01', '2100-12-31'] },
      { field: 'ship_region', operator: 'in', value: ['Europe'] },
    ]);

    // The saved mosaic opens and runs: the region filter reached the region tile.
    const grid = mosaics.getByRole('group', { name: 'Mosaic Sales board' });
    const region = grid.getByRole('article', { name: 'Tile Orders by region' });
    await region.getByRole('table', { name: 'Orders by region rows' }).getByRole('cell', { name: 'Europe', exact: true }).waitFor();
    expect(await region.getByRole('cell', { name: 'North America' }).count()).toBe(0);
    await grid.getByRole('article', { name: 'Tile All orders' }).locator('figure[data-chart-type="number"]').waitFor();
    await grid.getByRole('article', { name: 'Tile Orders by month' }).locator('figure[data-chart-type="line"] canvas').waitFor();

    // The stored widths and heights hold on screen, read back after a reload: 6 columns against 3, 5 rows
    // against 2, the text's 4 rows between them, a heading across.
    await page.reload();
    await mosaics.getByRole('button', { name: 'Open mosaic Sales board' }).click();
    await region.getByRole('table', { name: 'Orders by region rows' }).waitFor();
    const box = async (name: string) => (await grid.getByRole('article', { name }).boundingBox())!;
    const [whole, heading, number, regionBox, text] = [await grid.boundingBox(), await box('Tile Sales overview'), await box('Tile All orders'), await box('Tile Orders by region'), await box('Tile text Fresh on every run.')];
    expect(Math.abs(heading.width - whole!.width)).toBeLessThan(2);
    expect(regionBox.width / number.width).toBeGreaterThan(1.9);
    expect(regionBox.width / number.width).toBeLessThan(2.3);
    expect(regionBox.height / number.height).toBeGreaterThan(2.3);
    expect(Math.abs(number.y - regionBox.y)).toBeLessThan(2); // same grid row
    expect(text.x).toBeGreaterThan(regionBox.x + regionBox.width - 1); // right of the region tile
    expect(text.height / number.height).toBeGreaterThan(1.9);
    expect(text.height / number.height).toBeLessThan(2.3);
    expect(Math.abs(text.y - number.y)).toBeLessThan(2);
    await h.screenshot('mosaic-dashboard');
    expect(cspViolations(h)).toEqual([]);
  });

  it('edits the saved mosaic (the region filter removed brings every region back), and narrows the open one without saving', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content`);
    const mosaics = page.getByRole('region', { name: 'Mosaics' });
    await mosaics.getByRole('button', { name: 'Edit mosaic Sales board' }).click();
    const form = mosaics.getByRole('form', { name: 'Edit mosaic Sales board' });
    await form.getByRole('button', { name: 'Remove filter Region is one of Europe' }).click();
    await form.getByRole('button', { name: 'Save mosaic' }).click();
    await mosaics.getByRole('status').filter({ hasText: 'Mosaic Sales board saved.' }).waitFor();
    expect((await savedMosaic()).filters).toEqual([{ field: 'created_at', operator: 'inDateRange', value: ['2000-01-01', '2100-12-31'] }]);
    const grid = mosaics.getByRole('group', { name: 'Mosaic Sales board' });
    const region = grid.getByRole('article', { name: 'Tile Orders by region' });
    await region.getByRole('cell', { name: 'North America' }).waitFor();
    const months = grid.getByRole('article', { name: 'Tile Orders by month' });
    await months.locator('figure[data-chart-type="line"] canvas').waitFor();

    // Each scene tile names its scene once: the tile's heading, not the chart's title again.
    for (const [tile, name] of [[region, 'Orders by region'], [months, 'Orders by month'], [grid.getByRole('article', { name: 'Tile All orders' }), 'All orders']] as const) {
      expect(await tile.getByText(name, { exact: true }).count(), name).toBe(1);
      expect(await tile.getByRole('heading', { name, exact: true }).count(), name).toBe(1);
    }
    // Four regions: the rows are shown whole, neither the table nor the tile scrolls.
    const heights = (locator: typeof region) => locator.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(await region.getByRole('table').getByRole('cell', { name: /^(North America|Europe|Asia Pacific|Latin America)$/ }).count()).toBe(4);
    const regionTable = await heights(region.getByRole('table', { name: 'Orders by region rows' }));
    expect(regionTable.scroll).toBeLessThanOrEqual(regionTable.client);
    const regionTile = await heights(region);
    expect(regionTile.scroll).toBeLessThanOrEqual(regionTile.client);
    // More than ten months: the table shows ten rows and scrolls for the rest, inside a tile that does not.
    const monthRows = Number(await months.getByRole('table', { name: 'Orders by month rows' }).getAttribute('aria-rowcount')) - 1;
    expect(monthRows).toBeGreaterThan(10);
    const monthTable = await heights(months.getByRole('table', { name: 'Orders by month rows' }));
    expect(monthTable.scroll).toBeGreaterThan(monthTable.client);
    const monthTile = await heights(months);
    expect(monthTile.scroll).toBeLessThanOrEqual(monthTile.client);
    // A single number is its figure alone, whole in its tile: no grid repeats it.
    const number = grid.getByRole('article', { name: 'Tile All orders' });
    expect(await number.getByRole('table').count()).toBe(0);
    const numberTile = await heights(number);
    expect(numberTile.scroll).toBeLessThanOrEqual(numberTile.client);
    await h.screenshot('mosaic-tiles-whole');

    // Anyone viewing may narrow the open mosaic: the filter goes with the run, and is not saved.
    await mosaics.getByText('Narrow this view (not saved)').click();
    const narrow = mosaics.getByRole('group', { name: 'Dimension values (Filters for this view)' });
    await narrow.getByLabel('Dimension').selectOption({ label: 'Region' });
    await narrow.getByLabel('Values').fill('Asia Pacific');
    await narrow.getByRole('button', { name: 'Add values filter' }).click();
    await region.getByRole('cell', { name: 'Asia Pacific', exact: true }).waitFor();
    await expect.poll(() => region.getByRole('cell', { name: 'North America' }).count()).toBe(0);
    await mosaics.getByRole('list', { name: 'Filters for this view' }).getByText('Region is one of Asia Pacific').waitFor();
    expect((await savedMosaic()).filters).toEqual([{ field: 'created_at', operator: 'inDateRange', value: ['2000-01-01', '2100-12-31'] }]);
    await mosaics.getByRole('button', { name: 'Remove filter Region is one of Asia Pacific' }).click();
    await region.getByRole('cell', { name: 'North America' }).waitFor();
  });

  it('applies a dashboard filter only to the tile whose node has its field; the other keeps its value and says so', async () => {
    const { page } = h;
    const post = async (url: string, payload: object) => {
      const response = await h.t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload });
      if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    // Two single numbers on two nodes: orders has a channel, customers has none.
    const orders = (await post('/api/scenes', { name: 'Orders total', node: 'orders', measures: ['order_count'], visualization: { type: 'number' } })).scene;
    const customers = (await post('/api/scenes', { name: 'Customers total', node: 'customers', measures: ['customer_count'], visualization: { type: 'number' } })).scene;
    const tile = (id: string, sceneId: string, x: number) => ({ id, kind: 'scene', scene_id: sceneId, layout: { x, y: 0, w: 6, h: 2 } });
    await post('/api/mosaics', { name: 'Two nodes', tiles: [tile('orders', orders.id, 0), tile('customers', customers.id, 6)], filters: [] });
    const count = async (node: string, measure: string, filters: object[] = []) => String((await post('/api/query', { node, measures: [measure], filters })).data[0][measure]);
    const [allOrders, webOrders, allCustomers] = [await count('orders', 'order_count'), await count('orders', 'order_count', [{ field: 'channel', operator: 'in', value: ['web'] }]), await count('customers', 'customer_count')];
    expect(Number(webOrders)).toBeLessThan(Number(allOrders));

    await page.goto(`${h.base}/content`);
    const mosaics = page.getByRole('region', { name: 'Mosaics' });
    const grid = mosaics.getByRole('group', { name: 'Mosaic Two nodes' });
    const figure = (name: string) => grid.getByRole('article', { name: `Tile ${name}` }).locator('figure[data-chart-type="number"] .headline');
    await mosaics.getByRole('button', { name: 'Open mosaic Two nodes' }).click();
    await expect.poll(() => figure('Orders total').textContent()).toBe(Number(allOrders).toLocaleString('en'));
    expect(await figure('Customers total').textContent()).toBe(Number(allCustomers).toLocaleString('en'));
    expect(await grid.getByText(/does not apply here/).count()).toBe(0);

    await mosaics.getByRole('button', { name: 'Edit mosaic Two nodes' }).click();
    const form = mosaics.getByRole('form', { name: 'Edit mosaic Two nodes' });
    const values = form.getByRole('group', { name: 'Dimension values (Dashboard filters)' });
    await values.getByLabel('Dimension').selectOption('channel');
    await values.getByLabel('Values').fill('web');
    await values.getByRole('button', { name: 'Add values filter' }).click();
    await form.getByRole('list', { name: 'Dashboard filters' }).getByText('(applies to Orders total)').waitFor();
    await form.getByRole('button', { name: 'Save mosaic' }).click();
    await mosaics.getByRole('status').filter({ hasText: 'Mosaic Two nodes saved.' }).waitFor();

    // Saved, the mosaic opens again: the orders number narrows to the web channel, the customers number stays.
    await expect.poll(() => figure('Orders total').textContent()).toBe(Number(webOrders).toLocaleString('en'));
    expect(await figure('Customers total').textContent()).toBe(Number(allCustomers).toLocaleString('en'));
    const skipped = grid.getByRole('article', { name: 'Tile Customers total' }).getByText('Filter Channel is one of web does not apply here: node customers has no field channel.');
    await skipped.waitFor();
    expect(await skipped.isVisible()).toBe(true);
    expect(await grid.getByRole('article', { name: 'Tile Orders total' }).getByText(/does not apply here/).count()).toBe(0);
    expect(await auditFindings(page), 'axe on the mosaic with a skipped filter').toEqual([]);
    await h.screenshot('mosaic-filter-skipped-tile');
  });

  it('shows each scene tile loading until the mosaic run answers, with the layout drawn at once', async () => {
    const { page } = h;
    // The run request is held (then sent on unchanged to the real server) to see the tiles while it is out.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/mosaics/*/run', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await page.goto(`${h.base}/content`);
      await page.getByRole('button', { name: 'Open mosaic Sales board' }).click();
      const grid = page.getByRole('group', { name: 'Mosaic Sales board' });
      const region = grid.getByRole('article', { name: 'Tile Orders by region' });
      await region.getByRole('status').filter({ hasText: 'Loading Orders by region…' }).waitFor();
      expect(await region.getAttribute('aria-busy')).toBe('true');
      await grid.getByRole('article', { name: 'Tile Sales overview' }).getByRole('heading', { name: 'Sales overview' }).waitFor();
      await grid.getByRole('article', { name: 'Tile All orders' }).getByRole('status').filter({ hasText: 'Loading All orders…' }).waitFor();
      release();
      await region.getByRole('table', { name: 'Orders by region rows' }).waitFor();
      expect(await region.getByRole('status').count()).toBe(0);
      expect(await region.getAttribute('aria-busy')).toBe('false');
    } finally {
      release();
      await page.unroute('**/api/mosaics/*/run');
    }
  });
});
