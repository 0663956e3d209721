// axe-core's accessibility audit of the page as it stands. Its source is evaluated over the DevTools
// protocol (page.evaluate), which the page's Content-Security-Policy does not govern, so the audit needs
// no loosening of the policy; the harness's violation watch would report anything axe made the page do
// that the policy refuses.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** What the console must pass: WCAG 2 A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'best-practice'];
const BLOCKING = new Set(['serious', 'critical']);

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Puts axe-core on the page once (a navigation takes it away). */
export async function loadAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axe.source);
}

/** The serious and critical violations on the page, one line per rule with its targets. */
export async function auditFindings(page: Page): Promise<string[]> {
  await loadAxe(page);
  const findings = await page.evaluate(async (tags: string[]) => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  }, TAGS);
  return (findings as Finding[]).filter((f) => f.impact !== null && BLOCKING.has(f.impact)).map((f) => `${f.id} (${f.impact}): ${f.help} — ${f.targets.join(', ')}`);
}

/** Fails with every serious or critical violation on the page, naming the page as `name`. */
export async function audit(page: Page, name: string): Promise<void> {
  const findings = await auditFindings(page);
  if (findings.length > 0) throw new Error(`Accessibility violations on ${name}:\n${findings.join('\n')}`);
}
