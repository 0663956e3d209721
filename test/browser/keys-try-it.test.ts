// The "Try it" lines printed with a new key work as printed: each one, run by a real curl through a
// shell against the real server, is answered 200 with what it asks for. They trust the server's
// certificate (--cacert with the data directory's file, as the start-up banner prints it) and use the
// live model's own node, measure and reveal, never names the workspace may not have.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

const run = promisify(execFile);

/** Creates a key on the Keys page and answers the printed lines. */
async function createKey(h: ConsoleHarness, name: string, surface: string): Promise<string[]> {
  const { page } = h;
  await page.goto(`${h.base}/keys`);
  await page.getByLabel('Key name').fill(name);
  await page.getByLabel('Surface').selectOption(surface);
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Key value').waitFor();
  const printed = page.getByRole('region', { name: 'New key' }).locator('pre');
  await printed.first().waitFor();
  const lines = await printed.allTextContents();
  await page.getByRole('button', { name: 'Done, hide the key' }).click();
  return lines;
}

/** Runs a printed line as a user would paste it into a shell; answers curl's output, parsed. */
async function runPrinted(line: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('sh', ['-c', line], { timeout: 20_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe.skipIf(!hasChromium)('"Try it" lines in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });

  it('prints lines for a structured key that trust the certificate and query the live model', async () => {
    const lines = await createKey(h, 'try structured', 'structured');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toContain(`--cacert ${path.join(h.dataDir, 'tls', 'cert.pem')}`);
    const nodes = await runPrinted(lines.find((l) => l.includes('/v1/nodes'))!);
    expect((nodes.nodes as unknown[]).length).toBeGreaterThan(0);
    const query = lines.find((l) => l.includes('/v1/query'))!;
    expect(query).toMatch(/"node":"orders".*"measures":\["order_count"\]/);
    const answer = await runPrinted(query);
    expect((answer.data as unknown[]).length, JSON.stringify(answer)).toBeGreaterThan(0);
    for (const line of lines) expect(await runPrinted(line)).not.toHaveProperty('error');
    await h.screenshot('keys-try-it');
  });

  it('prints lines for a question key and a workspace key that answer as printed', async () => {
    const question = await createKey(h, 'try question', 'question');
    const asked = await runPrinted(question.find((l) => l.includes('/api/v1/ask'))!);
    expect(asked, JSON.stringify(asked)).toMatchObject({ provenance: { reveal_backed: true } });
    for (const line of question) expect(await runPrinted(line)).not.toHaveProperty('error');
    const workspace = await createKey(h, 'try workspace', 'workspace');
    for (const line of workspace) expect(await runPrinted(line)).toHaveProperty('workspace');
    expect(cspViolations(h)).toEqual([]);
  });
});
