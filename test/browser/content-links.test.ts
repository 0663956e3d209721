// Links to one item of the Content page, as scheduled deliveries send them (`/content?scene=<id>`,
// `/content?mosaic=<id>`), in Chromium: the scene's vault is shown with the scene in view, focused and
// marked, even when it lies beyond the first page of scenes; the mosaic is opened with its entry in view.
// Moving inside the app (or Back) to another link on the open page follows the address the same way.
// A scene that does not exist, or lies in a vault the reader may not see, reads "not found or not shared
// with you", as the API's 404 says.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, sessionCookie, signInThroughPage, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('links to a scene or a mosaic in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  let cookie = '';
  let vaultId = '';
  let sceneId = '';
  let mosaicId = '';
  let hiddenId = '';
  let fillerId = '';
  beforeEach(() => {
    h = harness();
  });

  async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, as = cookie) {
    return h.t.app.inject({ method, url: `/api${url}`, headers: { cookie: as, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
  }
  async function made(url: string, payload: object) {
    const response = await call('POST', url, payload);
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  }

  beforeAll(async () => {
    h = harness();
    cookie = await sessionCookie(h);
    // 50 scenes first, so the linked one is beyond the first page of every vault's scenes.
    for (let i = 0; i < 50; i++) {
      const filler = (await made('/scenes', { name: `Filler ${i}`, node: 'orders', measures: ['order_count'] })).scene.id as string;
      if (i === 0) fillerId = filler;
    }
    vaultId = (await made('/vaults', { name: 'Weekly' })).vault.id;
    await made('/scenes', { name: 'Weekly channels', vault: vaultId, node: 'orders', dimensions: ['channel'], measures: ['order_count'] });
    sceneId = (await made('/scenes', { name: 'Weekly regions', vault: vaultId, node: 'orders', dimensions: ['status'], measures: ['order_count'] })).scene.id;
    for (let i = 0; i < 50; i++) await made('/mosaics', { name: `Board ${i}`, tiles: [] });
    mosaicId = (await made('/mosaics', { name: 'Weekly board', vault: vaultId, tiles: [{ id: 't', kind: 'scene', scene_id: sceneId, layout: { x: 0, y: 0, w: 6, h: 4 } }] })).mosaic.id;
    // A vault the viewer is not a member of.
    const closed = (await made('/vaults', { name: 'Board only' })).vault.id;
    hiddenId = (await made('/scenes', { name: 'Board figures', vault: closed, node: 'orders', measures: ['order_count'] })).scene.id;
    const viewer = h.ws.members.viewer.id;
    expect((await call('PUT', `/vaults/${vaultId}/members/${viewer}`, { access: 'view' })).statusCode).toBe(200);
  }, 120_000);

  /** Whether the element lies wholly inside the viewport, and whether it has the focus. */
  async function seen(selector: ReturnType<ConsoleHarness['page']['locator']>) {
    return selector.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return { inView: box.top >= 0 && box.bottom <= window.innerHeight, focused: document.activeElement === el, marked: el.classList.contains('linked') };
    });
  }

  /** Follows a link to the Content page and waits for the item, in `section`, to be in view, focused and marked. */
  async function follow(link: string, section: string, item: string) {
    await h.page.goto(`${h.base}${link}`);
    const region = h.page.getByRole('region', { name: section, exact: true });
    const linked = region.getByRole('listitem', { name: item });
    await expect.poll(() => seen(linked)).toEqual({ inView: true, focused: true, marked: true });
    return { region, linked };
  }

  it("opens the scene's vault with the scene in view, focused and marked", async () => {
    const { page } = h;
    const { region: scenes, linked } = await follow(`/content?scene=${sceneId}`, 'Scenes', 'Scene Weekly regions');
    expect(await linked.getAttribute('aria-current')).toBe('true');
    // The list is the vault's, as the API lists it.
    expect(await scenes.getByLabel('Scenes of').inputValue()).toBe(vaultId);
    const inVault = (await call('GET', `/scenes?vault=${vaultId}`)).json().scenes.map((s: { name: string }) => `Scene ${s.name}`);
    expect(inVault).toEqual(['Scene Weekly channels', 'Scene Weekly regions']);
    await expect.poll(async () => scenes.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')))).toEqual(inVault);
    expect(await page.getByRole('alert').count()).toBe(0);
    await h.screenshot('content-link-scene');

    // Every vault again: the linked scene stays listed (and marked) beside the first page.
    await scenes.getByLabel('Scenes of').selectOption('');
    await expect.poll(() => scenes.getByRole('listitem').count()).toBe(51);
    expect(await seen(linked)).toMatchObject({ marked: true });
    expect(cspViolations(h)).toEqual([]);
  });

  it('opens the linked mosaic with its entry in view, focused and marked', async () => {
    const { region: mosaics } = await follow(`/content?mosaic=${mosaicId}`, 'Mosaics', 'Mosaic Weekly board');
    await mosaics.getByRole('heading', { name: 'Weekly board' }).waitFor();
    await h.screenshot('content-link-mosaic');
  });

  it('follows the address when the app moves to another scene or mosaic on the open page, and back', async () => {
    const { page } = h;
    await follow(`/content?scene=${sceneId}`, 'Scenes', 'Scene Weekly regions');
    // Marks the document: a page load would lose it.
    await page.evaluate(() => document.documentElement.setAttribute('data-same-document', 'yes'));
    // Moved inside the app as its router moves (the address pushed, then announced), not loaded again.
    const moveInApp = (to: string) => page.evaluate((path) => { history.pushState(null, '', path); window.dispatchEvent(new Event('navigated')); }, to);
    const scenes = page.getByRole('region', { name: 'Scenes', exact: true });
    const personal = (await call('GET', '/vaults')).json().vaults.find((v: { personal: boolean }) => v.personal).id as string;

    await moveInApp(`/content?scene=${fillerId}`);
    await expect.poll(() => seen(scenes.getByRole('listitem', { name: 'Scene Filler 0' }))).toEqual({ inView: true, focused: true, marked: true });
    expect(await scenes.getByLabel('Scenes of').inputValue()).toBe(personal);
    expect(await scenes.locator('li.linked').count()).toBe(1);

    // The browser's Back: the first scene again, in its vault, in view and focused once more.
    await page.goBack();
    await expect.poll(() => seen(scenes.getByRole('listitem', { name: 'Scene Weekly regions' }))).toEqual({ inView: true, focused: true, marked: true });
    expect(await scenes.getByLabel('Scenes of').inputValue()).toBe(vaultId);

    // A mosaic: its entry is marked and in view, and it opens; no scene is marked any more.
    await moveInApp(`/content?mosaic=${mosaicId}`);
    const mosaics = page.getByRole('region', { name: 'Mosaics', exact: true });
    await expect.poll(() => seen(mosaics.getByRole('listitem', { name: 'Mosaic Weekly board' }))).toEqual({ inView: true, focused: true, marked: true });
    await mosaics.getByRole('heading', { name: 'Weekly board' }).waitFor();
    expect(await scenes.locator('li.linked').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-same-document'))).toBe('yes');
    await h.screenshot('content-link-in-app');
    expect(cspViolations(h)).toEqual([]);
  });

  it('says a scene is not found or not shared, for one that does not exist and one in a vault the reader may not see', async () => {
    const { page } = h;
    await page.goto(`${h.base}/content?scene=00000000-0000-4000-8000-000000000000`);
    await page.getByRole('alert').filter({ hasText: 'Scene not found or not shared with you.' }).waitFor();
    await page.goto(`${h.base}/content?mosaic=not-an-id`);
    await page.getByRole('alert').filter({ hasText: 'Mosaic not found or not shared with you.' }).waitFor();

    // The viewer: the vault shared with them opens; the other one is answered as not there.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInThroughPage(h, h.ws.members.viewer.email, `/content?scene=${hiddenId}`);
    const viewerCookie = await sessionCookie(h);
    expect((await call('GET', `/scenes/${hiddenId}`, undefined, viewerCookie)).statusCode).toBe(404);
    await page.getByRole('alert').filter({ hasText: 'Scene not found or not shared with you.' }).waitFor();
    expect(await page.getByText('Board figures').count()).toBe(0);
    await h.screenshot('content-link-not-shared');

    expect((await call('GET', `/scenes/${sceneId}`, undefined, viewerCookie)).statusCode).toBe(200);
    await follow(`/content?scene=${sceneId}`, 'Scenes', 'Scene Weekly regions');
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
