// The glossary in Chromium: the home page points newcomers to it, and it shows docs/glossary.md's words.
import { beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('glossary in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  it('is linked from the home page and defines the roles and the model words', async () => {
    const { page } = h;
    await page.goto(`${h.base}/`);
    await page.getByRole('complementary', { name: 'New here?' }).getByRole('link', { name: 'glossary' }).click();
    await page.getByRole('heading', { level: 1, name: 'Glossary' }).waitFor();
    expect(page.url()).toBe(`${h.base}/glossary`);
    for (const word of ['viewer', 'tracer', 'editor', 'luminary', 'CML', 'node', 'reveal', 'data key', 'vault', 'scene', 'mosaic', 'signal']) {
      await page.getByRole('heading', { name: word, exact: true }).waitFor();
    }
    // Markdown is shown as text: code as code, links by their text, nothing as raw syntax.
    const text = (await page.locator('article.glossary').textContent())!;
    expect(text).toContain('viewer < tracer < editor < luminary');
    expect(text).not.toMatch(/\]\(|\*\*|`/);
    await h.screenshot('glossary');
    expect(cspViolations(h)).toEqual([]);
  });
});
