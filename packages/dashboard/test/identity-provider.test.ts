/**
 * With an identity provider configured, the sign-in page offers it: one button named by the
 * server's label (GET /auth/oidc), starting the provider's sign-in and coming back to /app.
 * Without one (accounts.test.ts), the page shows the password form only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

describe('dashboard sign-in with an identity provider', () => {
  let env: DashboardEnv;
  before(async () => {
    env = await startDashboardEnv({
      OIDC_PRESET: 'github',
      OIDC_CLIENT_ID: 'dashboard-test',
      OIDC_CLIENT_SECRET: 'not-used-here',
      OIDC_LABEL: 'Acme GitHub',
    });
  });
  after(async () => env?.close());

  it('shows one button for the configured provider, linking to its start route', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await page.goto(`${env.origin}/app/sign-in`);
    const button = page.getByRole('link', { name: 'Sign in with Acme GitHub' });
    await button.waitFor();
    assert.equal(await page.getByRole('link', { name: /^Sign in with/ }).count(), 1);
    const href = new URL((await button.getAttribute('href'))!, env.origin);
    assert.equal(href.pathname, '/api/v1/auth/oidc/start');
    assert.equal(href.searchParams.get('returnTo'), '/app/');
    await expectAccessible(page, 'sign in with a provider');
    assert.deepEqual(problems, []);
  });
});
