// Reading a drawn chart as a user does: the cursor moved along its x axis, and what its legend says at
// each place, to check the order along x and the values as written.
import type { Page } from 'playwright-core';

/** What the chart's legend says at each of `count` categories along x, left to right: the x label and the first series' value. */
export async function hoverAlongX(page: Page, count: number, chart = page.locator('figure.chart')): Promise<Array<{ x: string; value: string }>> {
  const over = chart.locator('.u-over');
  await over.scrollIntoViewIfNeeded();
  const box = (await over.boundingBox())!;
  const seen: Array<{ x: string; value: string }> = [];
  for (let i = 0; i < count; i++) {
    await page.mouse.move(box.x + ((i + 0.5) / count) * box.width, box.y + box.height / 2);
    const values = chart.locator('.u-legend .u-series .u-value');
    seen.push({ x: (await values.nth(0).textContent()) ?? '', value: (await values.nth(1).textContent()) ?? '' });
  }
  return seen;
}
