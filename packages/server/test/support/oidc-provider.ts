/**
 * A real OpenID Connect provider for tests (`oidc-provider`, by panva) on 127.0.0.1. Its login
 * and consent step is answered programmatically: whoever `signInAs` names signs in and consents.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestUser {
  sub: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The user the next sign-in is for. */
  signInAs(user: TestUser): void;
  close(): Promise<void>;
}

export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const users = new Map<string, TestUser>();
  let current: TestUser | undefined;
  const clientId = 'signpost-test';
  const clientSecret = 'signpost-test-secret-0123456789abcdef';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['signpost-test-cookie-key'] },
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as never] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, email: user.email, email_verified: user.emailVerified, name: user.name };
        },
      };
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (!current) throw new Error('signInAs was not called');
      users.set(current.sub, current);
      const grant = new provider.Grant({ accountId: current.sub, clientId: String(details.params['client_id']) });
      grant.addOIDCScope(String(details.params['scope']));
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: current.sub }, consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (user) => (current = user),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A minimal browser: follows redirects by hand, keeps cookies per host, stops where `stop` says. */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }

  /** Follows redirects from `url`; `rewrite` maps public addresses onto test servers. */
  async open(
    url: string,
    options: { rewrite?: (url: string) => string; stop?: (url: URL) => boolean } = {},
  ): Promise<{ response: Response; url: string }> {
    const rewrite = options.rewrite ?? ((u: string) => u);
    let target = rewrite(url);
    for (let hops = 0; hops < 15; hops++) {
      const host = new URL(target).host;
      const jar = this.jars.get(host) ?? new Map<string, string>();
      this.jars.set(host, jar);
      const response = await fetch(target, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '), accept: 'text/html' },
      });
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(';')[0]!;
        const index = pair.indexOf('=');
        const name = pair.slice(0, index).trim();
        const value = pair.slice(index + 1).trim();
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(name);
        else jar.set(name, value);
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response, url: target };
      const next = new URL(rewrite(new URL(location, target).href));
      if (options.stop?.(next)) return { response, url: next.href };
      target = next.href;
    }
    throw new Error('too many redirects');
  }
}
