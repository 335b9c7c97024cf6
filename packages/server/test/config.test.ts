import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('accounts configuration', () => {
  it('has working defaults: development mail, 5 seats, secure cookies on localhost, no identity provider', () => {
    const { accounts } = loadConfig({});
    assert.equal(accounts.smtpUrl, undefined);
    assert.equal(accounts.defaultTeamSeats, 5);
    assert.equal(accounts.sessionTtlDays, 30);
    assert.equal(accounts.secureCookies, true);
    assert.equal(accounts.oidc, undefined);
    assert.equal(loadConfig({ PUBLIC_URL: 'http://intranet.example:3000' }).accounts.secureCookies, false);
    assert.equal(loadConfig({ PUBLIC_URL: 'https://feedback.example.com' }).accounts.secureCookies, true);
  });

  it('reads SMTP, seats and the identity provider presets', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'Feedback <feedback@example.com>',
      DEFAULT_TEAM_SEATS: '12',
      OIDC_PRESET: 'google',
      OIDC_CLIENT_ID: 'client',
      OIDC_CLIENT_SECRET: 'secret',
    }).accounts;
    assert.equal(config.smtpUrl, 'smtps://user:pass@mail.example.com:465');
    assert.equal(config.defaultTeamSeats, 12);
    assert.deepEqual(config.oidc, {
      preset: 'google',
      issuer: 'https://accounts.google.com',
      clientId: 'client',
      clientSecret: 'secret',
      scopes: 'openid email profile',
      label: 'Google',
    });
    const github = loadConfig({ OIDC_PRESET: 'github', OIDC_CLIENT_ID: 'gh' }).accounts.oidc!;
    assert.equal(github.issuer, 'https://github.com');
    assert.equal(github.scopes, 'read:user user:email');
    // A generic provider needs its issuer.
    assert.equal(loadConfig({ OIDC_CLIENT_ID: 'x' }).accounts.oidc, undefined);
  });

  it('stops on bad values, naming each', () => {
    assert.throws(
      () =>
        loadConfig({ SMTP_URL: 'http://mail', DEFAULT_TEAM_SEATS: '0', OIDC_PRESET: 'facebook', MAIL_FROM: 'nobody' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        ['SMTP_URL', 'DEFAULT_TEAM_SEATS', 'OIDC_PRESET', 'MAIL_FROM'].every((name) => error.message.includes(name)),
    );
  });
});
