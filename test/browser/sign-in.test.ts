// The console in a real browser: served at / with a strict CSP whose nonce is fresh per response, sign-in
// showing the user, workspace and role, every page rendering without a CSP violation, and sign-out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ROUTES } from '../../src/surfaces/web/client-routes.js';
import { PASSWORD } from '../helpers/app.js';
import { cspViolations, hasChromium, signInThroughPage, startConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('console shell in Chromium', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsole();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('serves the page with a strict Content-Security-Policy carrying a fresh nonce', async () => {
    const first = await h.page.goto(`${h.base}/`);
    const csp = first!.headers()['content-security-policy']!;
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(csp).toMatch(/style-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/base-uri 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(first!.headers()['x-content-type-options']).toBe('nosniff');
    expect(first!.headers()['referrer-policy']).toBe('no-referrer');
    const second = await h.page.goto(`${h.base}/keys`);
    const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)![1];
    expect(nonceOf(second!.headers()['content-security-policy']!)).not.toBe(nonceOf(csp));
  });

  it('signs in, shows user, workspace and role, and tells where the demo credentials are printed', async () => {
    await h.page.goto(`${h.base}/`);
    await h.page.getByRole('heading', { name: 'First start?' }).waitFor();
    expect(await h.page.getByRole('complementary', { name: 'First start' }).textContent()).toMatch(/npm start.*prints its luminary's e-mail and a generated password/);
    await h.screenshot('sign-in');

    await h.page.getByLabel('E-mail').fill(h.ws.members.luminary.email);
    await h.page.getByLabel('Password').fill('wrong password');
    await h.page.getByRole('button', { name: 'Sign in' }).click();
    await h.page.getByRole('alert').waitFor();
    expect(await h.page.getByRole('alert').textContent()).toMatch(/email or password/i);

    await signInThroughPage(h, h.ws.members.luminary.email);
    const who = h.page.getByLabel('Signed in as');
    expect(await who.textContent()).toContain(h.ws.members.luminary.email);
    expect(await who.textContent()).toContain('luminary');
    expect(await who.textContent()).toMatch(/Workspace /);
    await h.screenshot('home');
  });

  it('renders every page without a CSP violation or script error', async () => {
    for (const { path, title } of CLIENT_ROUTES) {
      await h.page.goto(`${h.base}${path}`);
      await h.page.getByRole('heading', { level: 1 }).first().waitFor();
      await h.page.waitForLoadState('networkidle');
      expect(await h.page.title()).toContain(title);
      await h.screenshot(`page${path === '/' ? '-home' : path.replace(/\//g, '-')}`);
    }
    expect(cspViolations(h)).toEqual([]);
    expect(h.messages.filter((m) => m.startsWith('pageerror'))).toEqual([]);
  });

  it("answers an unknown address with the console's own not-found page, signed in or not", async () => {
    const signedIn = await h.page.goto(`${h.base}/no/such/page`);
    expect(signedIn!.status()).toBe(404);
    await h.page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
    expect(await h.page.getByRole('main').textContent()).toContain('No page at /no/such/page');
    expect(await h.page.title()).toBe('Page not found · Analytics console');
    await h.page.getByRole('navigation', { name: 'Pages' }).waitFor(); // still in the console
    await h.screenshot('not-found');
    await h.page.getByRole('link', { name: "the console's home" }).click();
    await h.page.getByRole('heading', { name: /^Welcome/ }).waitFor();

    // A browser without a session gets the same page, not the raw JSON of the API's 404.
    const fresh = await h.newContext();
    try {
      const page = await fresh.newPage();
      const response = await page.goto(`${h.base}/keys/nope`);
      expect(response!.status()).toBe(404);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.content()).not.toContain('route_not_found');
      await page.screenshot({ path: `${h.screenshotDir}/not-found-signed-out.png` });
      await page.getByRole('link', { name: "the console's home" }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    } finally {
      await fresh.close();
    }
    expect(cspViolations(h)).toEqual([]);
  });

  it('works in a narrow window', async () => {
    await h.page.setViewportSize({ width: 420, height: 800 });
    await h.page.goto(`${h.base}/keys`);
    await h.page.getByRole('heading', { name: 'API keys' }).waitFor();
    await h.screenshot('narrow-keys');
    await h.page.setViewportSize({ width: 1280, height: 800 });
  });

  it('offers a viewer only the pages its role can use', async () => {
    const context = await h.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${h.base}/`);
      // By keyboard only: type, Tab to the password, Enter submits.
      await page.getByLabel('E-mail').focus();
      await page.keyboard.type(h.ws.members.viewer.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      const nav = page.getByRole('navigation', { name: 'Pages' });
      await nav.getByRole('link', { name: 'Keys' }).waitFor();
      // Tab reaches the links, and the focused one shows a visible outline.
      await nav.getByRole('link', { name: 'Keys' }).focus();
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return { text: el.textContent, outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}` };
      });
      expect(focused.text).toBe('Connect an agent');
      // The console's own focus ring (styles.css), thicker and of higher contrast than the browser's.
      expect(focused.outline).toBe('solid 3px rgb(240, 160, 0)');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Connect an agent', level: 1 }).waitFor();
      await nav.getByRole('link', { name: 'Ask' }).waitFor();
      for (const hidden of ['Connections', 'SQL editor', 'Users']) expect(await nav.getByRole('link', { name: hidden }).count()).toBe(0);
      expect(await page.getByLabel('Signed in as').textContent()).toContain('viewer');
    } finally {
      await context.close();
    }
  });

  it('signs out: the page asks to sign in again and the API refuses the old session', async () => {
    await h.page.goto(`${h.base}/`);
    await h.page.getByRole('button', { name: 'Sign out' }).click();
    await h.page.getByRole('button', { name: 'Sign in' }).waitFor();
    const me = await h.page.evaluate(async () => (await fetch('/api/auth/me')).status);
    expect(me).toBe(401);
  });
});
