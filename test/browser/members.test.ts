// Members in Chromium: a luminary invites a new member (the one-time password is shown once and signs
// in with the role given), changes their role, and removes them after confirming; removing yourself is
// said plainly, and the only luminary can be neither demoted nor removed.
import { beforeEach, describe, expect, it } from 'vitest';
import { cspViolations, hasChromium, signedInConsole, type ConsoleHarness } from './harness.js';

describe.skipIf(!hasChromium)('members in Chromium', () => {
  const harness = signedInConsole();
  let h: ConsoleHarness;
  beforeEach(() => {
    h = harness();
  });
  const memberOf = async (email: string) => (await h.t.services.tenancy.listMembers(h.ws.id)).find((m) => m.email === email);

  it('invites a member, changes their role and removes them', async () => {
    const { page } = h;
    await page.goto(`${h.base}/users`);
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('E-mail').fill('grace@example.com');
    await invite.getByLabel('Name (optional)').fill('Grace');
    await invite.getByLabel('Role').selectOption('tracer');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('status').filter({ hasText: 'grace@example.com is invited as tracer.' }).waitFor();
    const password = (await page.getByLabel('One-time password of grace@example.com').textContent())!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(await memberOf('grace@example.com')).toMatchObject({ name: 'Grace', role: 'tracer' });
    await h.screenshot('members-invited');

    // The password signs in, with the role given.
    const login = await h.t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'grace@example.com', password } });
    expect(login.json()).toMatchObject({ role: 'tracer' });
    await page.getByRole('button', { name: 'Done, hide the secret' }).click();
    expect(await page.getByLabel('One-time password of grace@example.com').count()).toBe(0);

    // Inviting someone already in the workspace says so, and changes nothing.
    await invite.getByLabel('E-mail').fill(h.ws.members.viewer.email);
    await invite.getByLabel('Role').selectOption('luminary');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('alert').filter({ hasText: 'is already a member' }).waitFor();
    expect((await memberOf(h.ws.members.viewer.email))!.role).toBe('viewer');

    await page.getByLabel('Role of grace@example.com', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Change role of grace@example.com' }).click();
    await page.getByRole('status').filter({ hasText: 'grace@example.com is now editor.' }).waitFor();
    expect((await memberOf('grace@example.com'))!.role).toBe('editor');

    await page.getByRole('button', { name: 'Remove grace@example.com' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm removing grace@example.com' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await memberOf('grace@example.com')).toBeDefined();
    await page.getByRole('button', { name: 'Remove grace@example.com' }).click();
    await confirm.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByRole('status').filter({ hasText: 'grace@example.com is removed from the workspace.' }).waitFor();
    expect(await memberOf('grace@example.com')).toBeUndefined();
    expect(await page.getByRole('region', { name: 'Members' }).getByText('grace@example.com').count()).toBe(0); // the notice still names them
    expect(cspViolations(h)).toEqual([]);
  });

  it('keeps the only luminary, and asks plainly before you remove yourself', async () => {
    const { page } = h;
    const me = h.ws.members.luminary.email;
    await page.goto(`${h.base}/users`);
    expect(await page.getByRole('button', { name: `Remove ${me}` }).isDisabled()).toBe(true);
    expect(await page.getByLabel(`Role of ${me}`, { exact: true }).isDisabled()).toBe(true);

    // With a second luminary, removing yourself becomes possible, after a warning that names you.
    await page.getByLabel(`Role of ${h.ws.members.editor.email}`, { exact: true }).selectOption('luminary');
    await page.getByRole('button', { name: `Change role of ${h.ws.members.editor.email}` }).click();
    await page.getByRole('status').filter({ hasText: 'is now luminary' }).waitFor();
    await page.getByRole('button', { name: `Remove ${me}` }).click();
    const confirm = page.getByRole('group', { name: `Confirm removing ${me}` });
    expect(await confirm.textContent()).toContain('This is you: you lose access to this workspace at once.');
    await h.screenshot('members-remove-yourself');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await memberOf(me))!.role).toBe('luminary');
  });
});
