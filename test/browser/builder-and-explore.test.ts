// The CML builder and Explore in Chromium: a reveal's metric by a dimension shows the compiled SQL and
// runs; a node's fields with a filter run, chart and save as a scene. They use the session routes
// GET /api/reveals, GET /api/nodes(/:id/fields) and POST /api/query.
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_VALUES, operatorsFor, type FilterOperator, type FilterTarget } from '../../src/core/semantic/filter-operators.js';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

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
});
