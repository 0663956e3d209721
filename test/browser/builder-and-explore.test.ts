// The CML builder and Explore in Chromium: a reveal's metric by a dimension shows the compiled SQL and
// runs; a node's fields with a filter run, chart and save as a scene; a measure the model declares
// `format: percent` reads as a percentage in Explore's rows. They use the session routes
// GET /api/reveals, GET /api/nodes(/:id/fields) and POST /api/query.
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_VALUES, operatorsFor, type FilterOperator, type FilterTarget } from '../../src/core/semantic/filter-operators.js';
import { cspViolations, hasChromium, sessionCookie, signedInConsole, type ConsoleHarness } from './harness.js';

/** A value Explore's filter takes for the operator, on a field of this kind (typed as a user types it). */
function typedValue(operator: FilterOperator, kind: 'string' | 'timestamp' | 'measure'): string {
  const values = {
    string: { one: 'web', list: 'web, mobile', two: 'a, z', period: '', unit: '' },
    timestamp: { one: '2024-01-01', list: '2024-01-01', two: '2024-01-01, 2024-12-31', period: '3 months', unit: 'month' },
    measure: { one: '1', list: '1, 2', two: '1, 100000', period: '', unit: '' },
  } as const;
  const shape = OPERATOR_VALUES[operator];
  return shape === 'none' ? '' : values[kind][shape];
}

/** A project beside the demo's (which stays as it is): the share of completed orders, declared a percent. */
const SHARES_PROJECT = [
  {
    path: 'order_shares.cml',
    content: `node order_shares {
  label: "Order shares"
  connection: warehouse  table: shop.orders
  dimension id { type: number  primary_key: true  hidden: true }
  dimension status { type: string  hidden: true }
  dimension channel { type: string  label: "Channel" }
  measure order_count { type: count  label: "Orders"  format: number }
  measure completed_orders { type: count  format: number  filter: \${status} = 'completed' }
  measure completed_share { type: ratio  numerator: completed_orders  denominator: order_count  label: "Completed share"  format: percent }
}
`,
  },
];

describe.skipIf(!hasChromium)('CML builder and Explore in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeAll(() => {
    h = harness();
  });

  it('builds SQL from a reveal, previews it and runs it', async () => {
    const { page } = h;
    await page.goto(`${h.base}/cml-builder`);
    await page.getByLabel('Reveal').selectOption({ label: 'sales (commerce)' });
    await page.getByRole('checkbox', { name: 'orders', exact: true }).check();
    await page.getByLabel('Dimensions (comma-separated)').fill('channel');
    const preview = page.getByLabel('Compiled SQL');
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/FROM shop\.orders/);
    await page.getByRole('button', { name: 'Run query' }).click();
    const rows = page.getByRole('table', { name: 'Result rows' });
    await rows.waitFor();
    await rows.getByRole('cell', { name: 'marketplace' }).waitFor();
    await h.screenshot('cml-builder');
  });

  it('offers each field only the operators the server applies to it, and each of them runs', async () => {
    const { page } = h;
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    const fields: Array<{ field: string; kind: 'string' | 'timestamp' | 'measure'; target: FilterTarget }> = [
      { field: 'channel', kind: 'string', target: { kind: 'dimension', type: 'string' } },
      { field: 'created_at', kind: 'timestamp', target: { kind: 'dimension', type: 'timestamp' } },
      { field: 'order_count', kind: 'measure', target: { kind: 'measure' } },
    ];
    const refused: string[] = [];
    for (const { field, kind, target } of fields) {
      await filter.getByLabel('Field').selectOption(field);
      const offered = await filter.getByLabel('Operator').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      expect(offered, field).toEqual(operatorsFor(target));
      for (const operator of offered as FilterOperator[]) {
        await filter.getByLabel('Operator').selectOption(operator);
        const value = typedValue(operator, kind);
        if (OPERATOR_VALUES[operator] === 'none') expect(await filter.getByLabel('Value').count()).toBe(0);
        else await filter.getByLabel('Value').fill(value);
        const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/query')), page.getByRole('button', { name: 'Run', exact: true }).click()]);
        if (response.status() !== 200) refused.push(`${field} ${operator} ${JSON.stringify(value)}: ${response.status()} ${await response.text()}`);
      }
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it('explores a node with a filter, charts it and saves it as a scene', async () => {
    const { page } = h;
    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('orders');
    await page.getByRole('checkbox', { name: 'channel' }).check();
    await page.getByRole('checkbox', { name: 'Orders', exact: true }).check();
    await page.getByRole('button', { name: 'Add filter' }).click();
    const filter = page.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Field').selectOption('channel');
    await filter.getByLabel('Value').fill('web, mobile');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Explore rows' });
    await rows.waitFor();
    await rows.getByRole('cell', { name: 'web' }).waitFor();
    expect(await rows.getByRole('cell', { name: 'marketplace' }).count()).toBe(0);
    expect(await page.getByLabel(/^Chart: /).count()).toBe(1);
    await page.getByLabel('Scene name').fill('Web and mobile orders');
    await page.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('status').filter({ hasText: 'Scene Web and mobile orders saved.' }).waitFor();
    await h.screenshot('explore');
    expect(cspViolations(h)).toEqual([]);
  });

  it('writes a measure the model formats as a percent as a percentage in the rows', async () => {
    const { page } = h;
    const cookie = await sessionCookie(h);
    const post = (url: string, payload: object) => h.t.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/json' }, payload });
    const deployed = await post('/api/model/deploy', { project: 'shares', files: SHARES_PROJECT });
    expect(deployed.statusCode, deployed.body).toBe(200);
    // The fractions as the API answers them, to compare with what the page writes.
    const answer = await post('/api/query', { node: 'order_shares', dimensions: ['channel'], measures: ['completed_share'] });
    expect(answer.statusCode, answer.body).toBe(200);
    const fractions = (answer.json() as { data: Array<{ channel: string; completed_share: number | string }> }).data.map((r) => [r.channel, Number(r.completed_share)] as const);
    expect(fractions.length).toBe(3);
    for (const [, fraction] of fractions) expect(fraction > 0 && fraction < 1, String(fraction)).toBe(true);

    await page.goto(`${h.base}/explore`);
    await page.getByLabel('Node').selectOption('order_shares');
    await page.getByRole('checkbox', { name: 'Channel', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Completed share', exact: true }).check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Explore rows' });
    await rows.getByRole('cell', { name: 'marketplace', exact: true }).waitFor();
    const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    for (const [channel, fraction] of fractions) {
      const row = rows.getByRole('row').filter({ has: page.getByRole('cell', { name: channel, exact: true }) });
      expect(await row.getByRole('cell').allTextContents(), channel).toEqual([channel, `${oneDecimal.format(fraction * 100)} %`]);
    }
    await h.screenshot('explore-percent');
  });
});
