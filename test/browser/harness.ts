// The real app on loopback over HTTPS (surface B's keys need it) with the demo's warehouse and model in a
// seeded workspace, and Debian's Chromium driven by playwright-core. Collects the page's console
// messages and every Content-Security-Policy violation of its pages (csp-watch.ts): a test of a
// signed-in console fails on a violation seen during it, and close() fails on any not yet reported.
// Saves screenshots under test-artifacts/browser/.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { setUpDemo } from '../../src/demo-setup.js';
import { answerPlainHttpOnTlsPort } from '../../src/http/plain-http-on-tls-port.js';
import { generateSelfSigned } from '../../src/runtime-files.js';
import { cspConsoleMessages, watchCspViolations } from './csp-watch.js';
import { PASSWORD, seedWorkspace, startTestApp, type SeededWorkspace, type TestApp } from '../helpers/app.js';

/** Debian's Chromium; TEST_CHROMIUM names another build of it. */
export const CHROMIUM = process.env.TEST_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
// In CI (REQUIRE_SERVICES=1, where .ci/run installs it) a missing Chromium fails the run instead of skipping.
if (!hasChromium && process.env.REQUIRE_SERVICES === '1') throw new Error(`${CHROMIUM} is required (REQUIRE_SERVICES=1) but absent: apt-get install -y chromium`);
if (!hasChromium) console.warn(`Browser tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium).`);

const ROOT = path.resolve(import.meta.dirname, '../..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'browser');

/** The console is built by the global setup (global-setup.ts); a missing build fails loudly here. */
export function ensureConsoleBuilt(): void {
  if (!existsSync(path.join(ROOT, 'web', 'dist', 'index.html'))) throw new Error('web/dist is missing: the console did not build (npm run build:console)');
}

export interface ConsoleHarness {
  t: TestApp;
  ws: SeededWorkspace;
  base: string;
  cert: string;
  /** The data directory the app was started with (its certificate is under tls/). */
  dataDir: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Where screenshot() writes its PNG files. */
  screenshotDir: string;
  /** Every console message of the page, as "type: text". */
  messages: string[];
  /** Every securitypolicyviolation event of any page of the context, as "directive blocked uri … on url". */
  violations: string[];
  /** The violations (events and console lines) not yet reported by this call: a failing check names them. */
  takeCspViolations(): string[];
  /** Another browser context (a second member, no session), its pages' violations watched like the first's. */
  newContext(): Promise<BrowserContext>;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** `env` adds settings to the app's (SVC_WEBHOOK_ALLOW_HOSTS for a receiver on loopback, say). */
export async function startConsole(options: { orders?: number; env?: Record<string, string> } = {}): Promise<ConsoleHarness> {
  ensureConsoleBuilt();
  mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-browser-'));
  const pems = await generateSelfSigned();
  // Where `svc serve` keeps the certificate it generates: the file the console tells curl to trust.
  mkdirSync(path.join(dataDir, 'tls'));
  writeFileSync(path.join(dataDir, 'tls', 'cert.pem'), pems.cert);
  writeFileSync(path.join(dataDir, 'tls', 'key.pem'), pems.private, { mode: 0o600 });
  const t = await startTestApp({ env: { SVC_DATA_DIR: dataDir, ...options.env }, tls: { key: pems.private, cert: pems.cert } });
  answerPlainHttpOnTlsPort(t.app.server);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const ws = await seedWorkspace(t.services);
  const lum = ws.members.luminary;
  await setUpDemo(t.services, { workspaceId: ws.id, userId: lum.id, email: lum.email }, { orders: options.orders ?? 400 });

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // The certificate is the self-signed one `svc serve` generates on first start.
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } });
  const violations: string[] = [];
  await watchCspViolations(context, violations);
  const page = await context.newPage();
  // Fails a step well inside the test's own time limit, so the failure names the step.
  page.setDefaultTimeout(8000);
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  let reportedEvents = 0;
  let reportedMessages = 0;
  const takeCspViolations = () => {
    const fresh = [...violations.slice(reportedEvents), ...cspConsoleMessages(messages.slice(reportedMessages))];
    reportedEvents = violations.length;
    reportedMessages = messages.length;
    return fresh;
  };
  return {
    t,
    ws,
    base: `https://127.0.0.1:${port}`,
    cert: pems.cert,
    dataDir,
    browser,
    context,
    page,
    messages,
    violations,
    takeCspViolations,
    async newContext() {
      const another = await browser.newContext({ ignoreHTTPSErrors: true });
      await watchCspViolations(another, violations);
      return another;
    },
    screenshotDir: ARTIFACTS,
    async screenshot(name) {
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
    },
    async close() {
      await browser.close();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
      failOnCspViolations(takeCspViolations());
    },
  };
}

/** Signs in through the page as a member of the seeded workspace. */
export async function signInThroughPage(h: ConsoleHarness, email: string, path = '/'): Promise<void> {
  await h.page.goto(`${h.base}${path}`);
  await h.page.getByLabel('E-mail').fill(email);
  await h.page.getByLabel('Password').fill(PASSWORD);
  await h.page.getByRole('button', { name: 'Sign in' }).click();
  await h.page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The browser's session cookie, as a Cookie header for requests the test makes beside the page. */
export async function sessionCookie(h: ConsoleHarness): Promise<string> {
  return (await h.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Everything that says the Content-Security-Policy blocked something: the pages' events and console lines. */
export function cspViolations(h: ConsoleHarness): string[] {
  return [...h.violations, ...cspConsoleMessages(h.messages)];
}

function failOnCspViolations(fresh: string[]): void {
  if (fresh.length > 0) throw new Error(`Content-Security-Policy violations:\n${fresh.join('\n')}`);
}

/** A console for the enclosing describe, signed in as its luminary: started before its tests, closed after. */
export function signedInConsole(options: Parameters<typeof startConsole>[0] = {}): () => ConsoleHarness {
  let h: ConsoleHarness | undefined;
  beforeAll(async () => {
    h = await startConsole(options);
    await signInThroughPage(h, h.ws.members.luminary.email);
  });
  // Each test answers for the violations seen while it ran.
  afterEach(() => {
    if (h) failOnCspViolations(h.takeCspViolations());
  });
  afterAll(async () => {
    await h?.close();
  });
  return () => h!;
}
