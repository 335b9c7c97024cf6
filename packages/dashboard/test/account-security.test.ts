/**
 * Account security in Chromium against a real server: forgot password → the e-mailed link → a new
 * password (a weak one refused in place first) → sign in with it; the profile name and password;
 * personal access tokens created, shown once, copied, listed, revoked (and then refused by the API).
 * axe-core on every screen and state, once in dark mode.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const PASSWORD = 'copper kettle morning 77';

describe('dashboard account security', () => {
  let env: DashboardEnv;
  before(async () => {
    env = await startDashboardEnv();
  });
  after(async () => env?.close());

  const apiSignUp = async (email: string, name: string) => {
    const response = await fetch(`${env.origin}/api/v1/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD, name }),
    });
    assert.equal(response.status, 202);
  };
  const signInUi = async (page: Page, email: string, password: string) => {
    await page.goto(`${env.origin}/app/sign-in`);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/?$/);
  };

  it('resets a forgotten password through the e-mailed link, then signs in with it', async () => {
    const { page, problems } = await watchedPage(env.browser);
    const email = `forgetful-${Date.now()}@example.com`;
    await apiSignUp(email, 'Forgetful Fran');

    await page.goto(`${env.origin}/app/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/app\/forgot-password$/);
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page, 'forgot password');

    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();
    await expectAccessible(page, 'forgot password, sent');

    // An unknown address gets the very same answer.
    await page.getByLabel('E-mail address').fill(`nobody-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();

    const mail = await env.mailbox.waitFor((m) => m.to.includes(email) && /Reset/i.test(m.subject));
    const link = new URL(mail.links.find((href) => href.includes('/app/reset-password?token='))!);
    assert.equal(link.origin, env.origin);

    await page.goto(link.href);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await expectAccessible(page, 'reset password');

    // A password the server refuses: its words under the field, what was typed kept.
    await page.getByLabel('New password', { exact: true }).fill('password1234');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').first().waitFor();
    assert.equal(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('New password', { exact: true }).inputValue(), 'password1234');
    await expectAccessible(page, 'reset password, refused');

    const fresh = 'violet canyon whistle 19';
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await expectAccessible(page, 'reset password, done');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/sign-in$/);

    // The old password no longer works; the new one does.
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail address or password' }).waitFor();
    await page.getByLabel('Password').fill(fresh);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/?$/);

    // The link works once.
    await page.goto(link.href);
    await page.getByLabel('New password', { exact: true }).fill('another fine password 5');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'already been used' }).waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    await expectAccessible(page, 'reset password, used link');

    // A link without its token says so.
    await page.goto(`${env.origin}/app/reset-password`);
    await page.getByRole('alert').filter({ hasText: 'no token' }).waitFor();
    await expectAccessible(page, 'reset password, no token');
    assert.deepEqual(problems, []);
  });

  it('renames the account and changes its password', async () => {
    const { page, problems } = await watchedPage(env.browser);
    const email = `profile-${Date.now()}@example.com`;
    await apiSignUp(email, 'Pat Profile');
    await signInUi(page, email, PASSWORD);

    await page.goto(`${env.origin}/app/account`);
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Pat Profile');
    await page.getByLabel('Name', { exact: true }).fill('Patricia Profile');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Name saved.' }).waitFor();
    const me = await page.evaluate(() => fetch('/api/v1/me').then((r) => r.json()));
    assert.equal(me.account.name, 'Patricia Profile');

    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password', { exact: true }).fill('sturdy walnut ladder 8');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The current password is wrong' }).waitFor();
    assert.equal(await page.getByLabel('New password', { exact: true }).inputValue(), 'sturdy walnut ladder 8');
    await expectAccessible(page, 'account, password refused');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    assert.equal(await page.getByLabel('New password', { exact: true }).inputValue(), '');
    const signIn = await fetch(`${env.origin}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'sturdy walnut ladder 8' }),
    });
    assert.equal(signIn.status, 200);
    assert.deepEqual(problems, []);
  });

  it('creates a token shown once, copies it, lists it and revokes it', async () => {
    const context = await env.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    const page = await context.newPage();
    const email = `tokens-${Date.now()}@example.com`;
    await apiSignUp(email, 'Toni Tokens');
    await signInUi(page, email, PASSWORD);
    await page.goto(`${env.origin}/app/account`);
    await page.getByText('No tokens yet.').waitFor();
    await expectAccessible(page, 'account, no tokens');

    await page.getByLabel('Token name').fill('Deploy script');
    await page.getByLabel('Expires after').selectOption('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByLabel('The token “Deploy script”');
    await secret.waitFor();
    const token = await secret.inputValue();
    assert.match(token, /^sp_pat_/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token);
    await expectAccessible(page, 'account, token shown once');

    const row = page.getByRole('row').filter({ hasText: 'Deploy script' });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /Never/);
    assert.match((await row.textContent()) ?? '', /Active/);

    // The token works with the API.
    const asToken = () => fetch(`${env.origin}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    const used = await asToken();
    assert.equal(used.status, 200);
    assert.equal((await used.json()).account.email, email);

    // Shown once: a fresh visit lists it by prefix only, with when it was last used.
    await page.reload();
    await row.waitFor();
    assert.equal(await page.getByLabel('The token “Deploy script”').count(), 0);
    assert.ok(!((await page.locator('main').textContent()) ?? '').includes(token));
    assert.doesNotMatch((await row.getByRole('cell').nth(2).textContent()) ?? '', /Never/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'account with a token, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await row.getByRole('button', { name: 'Revoke Deploy script' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await expectAccessible(page, 'revoke token dialog');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Revoked').waitFor();
    assert.equal(await row.getByRole('button').count(), 0);
    assert.equal((await asToken()).status, 401);
    await context.close();
  });
});
