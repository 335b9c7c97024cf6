/**
 * Sign-in through an identity provider with openid-client: authorization code + PKCE (S256),
 * state and nonce. Presets: `oidc` (any OpenID Connect issuer, by discovery), `google` (the same,
 * at accounts.google.com), `github` (OAuth 2 plus GitHub's user API, which has no OpenID Connect).
 */
import type * as OpenIdClient from 'openid-client';
import { lazyModule } from '../../kernel/lazy-module.ts';

/** Loaded when a provider is configured, not by every server (kernel/lazy-module.ts). */
const openIdClient = lazyModule<typeof OpenIdClient>('openid-client', import.meta.url);
import type { OidcConfig } from '../../config.ts';

export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | undefined;
  /** The provider vouches for the address. */
  emailVerified: boolean;
  name: string;
}

export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface IdentityProvider {
  authorize(redirectUri: string): Promise<AuthorizationRequest>;
  /** Exchanges the code of the callback URL and reads who signed in. */
  identify(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<ProviderIdentity>;
}

/** github.com, or a GitHub Enterprise Server at OIDC_ISSUER (its API under `/api/v3`). */
function githubEndpoints(issuer: string) {
  const base = issuer.replace(/\/+$/, '');
  return {
    metadata: {
      issuer: base,
      authorization_endpoint: `${base}/login/oauth/authorize`,
      token_endpoint: `${base}/login/oauth/access_token`,
    },
    api: base === 'https://github.com' ? 'https://api.github.com' : `${base}/api/v3`,
  };
}

export function createIdentityProvider(settings: OidcConfig): IdentityProvider {
  const client = openIdClient();
  const auth = settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None();
  // http issuers only make sense on a developer's machine or in tests; https is the norm.
  const insecure = settings.issuer.startsWith('http:');
  const endpoints = githubEndpoints(settings.issuer);
  const github = {
    configuration: () => {
      const config = new client.Configuration(endpoints.metadata, settings.clientId, undefined, auth);
      if (insecure) client.allowInsecureRequests(config);
      return config;
    },
  };
  let configuration: Promise<OpenIdClient.Configuration> | undefined;
  const configure = () => {
    configuration ??= (
      settings.preset === 'github'
        ? Promise.resolve(github.configuration())
        : client.discovery(
            new URL(settings.issuer),
            settings.clientId,
            undefined,
            auth,
            insecure ? { execute: [client.allowInsecureRequests] } : {},
          )
    ).catch((error: unknown) => {
      configuration = undefined; // try discovery again on the next sign-in
      throw error;
    });
    return configuration;
  };

  return {
    async authorize(redirectUri) {
      const config = await configure();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
      };
      if (settings.preset !== 'github') parameters['nonce'] = nonce;
      return { url: client.buildAuthorizationUrl(config, parameters), state, nonce, codeVerifier };
    },

    async identify(callbackUrl, checks) {
      const config = await configure();
      if (settings.preset === 'github') return githubIdentity(config, endpoints.api, callbackUrl, checks);
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      let profile: Record<string, unknown> = claims;
      if (claims['email'] === undefined) {
        // Many providers put the address in the UserInfo response only.
        profile = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      }
      const email = typeof profile['email'] === 'string' ? profile['email'] : undefined;
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        emailVerified:
          email !== undefined && (profile['email_verified'] === true || profile['email_verified'] === 'true'),
        name: typeof profile['name'] === 'string' ? profile['name'] : '',
      };
    },
  };
}

async function githubIdentity(
  config: OpenIdClient.Configuration,
  api: string,
  callbackUrl: URL,
  checks: { state: string; codeVerifier: string },
): Promise<ProviderIdentity> {
  const client = openIdClient();
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
  });
  const read = async <T>(path: string): Promise<T> => {
    const response = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(api + path),
      'GET',
      undefined,
      new Headers({ accept: 'application/vnd.github+json' }),
    );
    if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
    return (await response.json()) as T;
  };
  const user = await read<{ id: number; login: string; name: string | null }>('/user');
  const emails = await read<Array<{ email: string; primary: boolean; verified: boolean }>>('/user/emails');
  const primary = emails.find((entry) => entry.primary) ?? emails.find((entry) => entry.verified);
  return {
    issuer: config.serverMetadata().issuer,
    subject: String(user.id),
    email: primary?.email,
    emailVerified: primary?.verified === true,
    name: user.name ?? user.login,
  };
}
