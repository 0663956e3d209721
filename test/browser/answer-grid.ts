// Reading an answer's grid as the page shows it (headers in words, formatted cells), and reading a
// formatted figure back as a number, to check what the page shows against what the API answers.
import type { Page } from 'playwright-core';

/** The grid's rows, each keyed by its column header as shown. */
export async function readGrid(page: Page, label: string): Promise<Array<Record<string, string>>> {
  const grid = page.getByRole('table', { name: label });
  await grid.waitFor();
  return grid.evaluate((table) => {
    const text = (el: Element) => (el.textContent ?? '').trim();
    const headers = [...table.querySelectorAll('[role="columnheader"]')].map(text);
    const body = table.querySelectorAll('[role="rowgroup"]')[1]!;
    return [...body.querySelectorAll('[role="row"]')].map((row) => Object.fromEntries([...row.querySelectorAll('[role="cell"]')].map((cell, i) => [headers[i]!, text(cell)])));
  });
}

/** A figure as shown ("▲ +1,234.5 %", "▼ −4", "48.4 %") as a number; null for the "no value" dash. */
export function figure(text: string | undefined): number | null {
  if (text === undefined) throw new Error('no such column in the grid');
  if (text === '—') return null;
  const cleaned = text.replace(/[▲▼=%,\s]/g, '').replace('−', '-');
  const value = Number(cleaned);
  if (cleaned === '' || Number.isNaN(value)) throw new Error(`not a figure: ${JSON.stringify(text)}`);
  return value;
}

/** The arrow a change is shown with, from its value as the API answers it, rounded as the page rounds it. */
export function arrowOf(value: number | null, decimals: number): string {
  if (value === null) return '—';
  const rounded = Number(value.toFixed(decimals));
  return rounded > 0 ? '▲' : rounded < 0 ? '▼' : '=';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A month as the API answers it ("2025-11-01T00:00:00.000") named as the page names it: "Nov 2025". */
export function monthName(value: unknown): string {
  const text = String(value);
  return `${MONTHS[Number(text.slice(5, 7)) - 1]} ${text.slice(0, 4)}`;
}
