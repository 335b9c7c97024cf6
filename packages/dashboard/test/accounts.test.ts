/**
 * The account screens in Chromium against a real server serving the built dashboard: sign up, see
 * Not verified, resend, open the e-mailed link, see Verified; sign out, a wrong password refused in
 * place, sign in again by keyboard. axe-core on every screen, in light and dark.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

const PASSWORD = 'quiet harbour lantern 42';

describe('dashboard accounts', () => {
  let env: DashboardEnv;
  before(async () => {
    env = await startDashboardEnv();
  });
  after(async () => env?.close());

  const heading = (page: Page) => page.getByRole('heading', { level: 1 });

  it('signs up, verifies the address through the e-mailed link, signs out and in again', async () => {
    const { page, problems } = await watchedPage(env.browser);
    const email = `pm-${Date.now()}@example.com`;

    // Not signed in: the app sends the visitor to sign in.
    await page.goto(`${env.origin}/app/`);
    await page.waitForURL(/\/app\/sign-in\?next=%2F$/);
    assert.equal(await heading(page).textContent(), 'Sign in');
    await expectAccessible(page, 'sign in');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/app\/sign-up$/);
    await expectAccessible(page, 'sign up');

    // A password the server refuses: the error shows in place and nothing typed is lost.
    await page.getByLabel('Name').fill('Pat Manager');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('password1234');
    await page.getByRole('button', { name: 'Create account' }).click();
    const refusal = page.getByRole('alert').first();
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /\w+/);
    assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Name').inputValue(), 'Pat Manager');
    assert.equal(await page.getByLabel('E-mail address').inputValue(), email);
    assert.equal(await page.getByLabel('Password').inputValue(), 'password1234');
    await expectAccessible(page, 'sign up with an error');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/account$/);
    await page.getByText('Not verified', { exact: true }).waitFor();
    await expectAccessible(page, 'account, not verified');

    // Resend: a second e-mail; its link (the newest) verifies.
    await env.mailbox.nextTo(email, 0);
    await page.getByRole('button', { name: 'Resend' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Verification e-mail sent to ${email}` })
      .waitFor();
    const mail = await env.mailbox.nextTo(email, 1);
    const link = new URL(mail.links.find((href) => href.includes('/app/verify-email?token='))!);
    assert.equal(link.origin, env.origin);

    await page.goto(link.href);
    await page.getByText(`${email} is verified.`).waitFor();
    await expectAccessible(page, 'verification page');

    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.getByText('Verified', { exact: true }).waitFor();
    assert.equal(await page.getByText('Not verified').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Resend' }).count(), 0);
    await expectAccessible(page, 'account, verified');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, 'account, verified, dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Welcome, Pat Manager' }).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', new RegExp(`signed in as ${email}`));
    await expectAccessible(page, 'home');

    // Sign out, then a wrong password: refused in place, the address kept.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/sign-in$/);
    await page.goto(`${env.origin}/app/account`);
    await page.waitForURL(/\/app\/sign-in\?next=%2Faccount$/);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail address or password' }).waitFor();
    assert.equal(await page.getByLabel('E-mail address').inputValue(), email);
    assert.match(page.url(), /\/app\/sign-in/);
    await expectAccessible(page, 'sign in with an error');

    // Sign in by keyboard alone: the password field, then Enter; back to the page asked for.
    await page.getByLabel('Password').focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/account$/);
    await page.getByText('Verified', { exact: true }).waitFor();

    assert.deepEqual(problems, []);
  });

  it('reaches every control by keyboard with a visible focus ring', async () => {
    const { page } = await watchedPage(env.browser);
    await page.goto(`${env.origin}/app/sign-in`);
    await heading(page).waitFor();
    const reached: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        return {
          name: (element.getAttribute('name') ?? element.textContent ?? '').trim(),
          outline: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        };
      });
      if (!focused) continue;
      reached.push(focused.name);
      assert.ok(focused.outline, `visible focus on ${focused.name}`);
    }
    for (const name of ['Skip to content', 'email', 'password', 'Sign in', 'Create an account'])
      assert.ok(reached.includes(name), `${name} reached by Tab (reached: ${reached.join(', ')})`);
  });

  it('says so when a verification link is not valid, and when a page does not exist', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await page.goto(`${env.origin}/app/verify-email?token=not-a-real-token`);
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /link/i);
    await expectAccessible(page, 'verification page, bad link');

    await page.goto(`${env.origin}/app/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectAccessible(page, 'not found');
    assert.deepEqual(problems, []);
  });

  it('is usable at tablet width', async () => {
    const context = await env.browser.newContext({ viewport: { width: 768, height: 1024 } });
    const page = await context.newPage();
    await page.goto(`${env.origin}/app/sign-up`);
    await heading(page).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
    await expectAccessible(page, 'sign up, tablet');
    await context.close();
  });
});
