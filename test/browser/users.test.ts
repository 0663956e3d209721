// Users and attributes in Chromium: a member's attributes are edited as key = value lines, and a line
// removed removes the attribute. Uses GET /api/users and PATCH /api/users/:user_id/attributes.
import { beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('users in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeAll(() => {
    h = harness();
  });

  it("sets and removes a member's attributes", async () => {
    const { page } = h;
    const viewer = h.ws.members.viewer;
    const attributesOf = async () => {
      const members = await h.t.services.tenancy.listMembers(h.ws.id);
      return members.find((m) => m.id === viewer.id)!.attributes;
    };
    await page.goto(`${h.base}/users`);
    const box = page.getByLabel(`Attributes of ${viewer.email}`, { exact: true });
    await box.fill('region = Europe\nteam = north');
    await page.getByRole('button', { name: `Save attributes of ${viewer.email}` }).click();
    await page.getByRole('status').filter({ hasText: `Attributes of ${viewer.email} saved.` }).waitFor();
    expect(await attributesOf()).toEqual({ region: 'Europe', team: 'north' });

    await page.reload();
    expect(await page.getByLabel(`Attributes of ${viewer.email}`, { exact: true }).inputValue()).toBe('region = Europe\nteam = north');
    await page.getByLabel(`Attributes of ${viewer.email}`, { exact: true }).fill('region = Europe');
    await page.getByRole('button', { name: `Save attributes of ${viewer.email}` }).click();
    await page.getByRole('status').filter({ hasText: 'saved' }).waitFor();
    expect(await attributesOf()).toEqual({ region: 'Europe' });
    await h.screenshot('users');
  });
});
