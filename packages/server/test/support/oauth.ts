/**
 * OAuth test helpers: a cookie-keeping "browser" that signs in and answers the consent page as
 * a person would, and an OAuthClientProvider for the SDK client that uses it.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

export const CALLBACK = 'http://127.0.0.1:1/callback';

export interface Page {
  status: number;
  url: string;
  html: string;
  /** Set when the flow left the server for the client's redirect URI. */
  redirectedTo?: URL;
}

/** Follows redirects on the server, keeps cookies, stops at a redirect to another origin. */
export class Browser {
  readonly origin: string;
  private readonly cookies = new Map<string, string>();

  constructor(origin: string) {
    this.origin = origin;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async open(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Page> {
    let current = new URL(url, this.origin);
    let method = init.method ?? 'GET';
    let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
    for (let hops = 0; hops < 10; hops++) {
      const headers: Record<string, string> = {};
      if (this.cookies.size > 0) headers['cookie'] = this.cookieHeader();
      if (body !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        headers['origin'] = this.origin;
      }
      const response = await fetch(current, { method, headers, body: body ?? null, redirect: 'manual' });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, current);
        if (next.origin !== new URL(this.origin).origin) {
          return { status: response.status, url: current.toString(), html: '', redirectedTo: next };
        }
        current = next;
        method = 'GET';
        body = undefined;
        continue;
      }
      return { status: response.status, url: current.toString(), html: await response.text() };
    }
    throw new Error('too many redirects');
  }

  /** Submits the page's form with its hidden fields plus `values`. */
  async submit(page: Page, values: Record<string, string>): Promise<Page> {
    const action = /<form method="post" action="([^"]+)"/.exec(page.html)?.[1];
    if (!action) throw new Error(`no form on the page:\n${page.html.slice(0, 2000)}`);
    const form: Record<string, string> = {};
    for (const match of page.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
      form[match[1]!] = unescapeHtml(match[2]!);
    }
    return this.open(unescapeHtml(action), { method: 'POST', form: { ...form, ...values } });
  }
}

const unescapeHtml = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!,
  );

/** The person at the browser: how they sign in and what they choose on the consent page. */
export interface Person {
  email: string;
  password: string;
  /** Project and access to pick, or 'deny'. */
  choose: () => { project: string; access: 'read' | 'write' } | 'deny';
}

/**
 * The SDK client's OAuth provider. `redirectToAuthorization` does what a browser does: opens
 * the authorization URL, signs in if asked, answers the consent page and catches the redirect.
 */
export class TestOAuthProvider implements OAuthClientProvider {
  readonly browser: Browser;
  person: Person;
  metadata: OAuthClientMetadata;
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** The last redirect back to the client (code or error). */
  callback: URL | undefined;
  /** Every authorization URL the client opened. */
  readonly authorizationUrls: URL[] = [];
  /** The HTML of every consent page the person answered. */
  readonly consentPages: string[] = [];

  constructor(browser: Browser, person: Person, metadata: Partial<OAuthClientMetadata> = {}) {
    this.browser = browser;
    this.person = person;
    this.metadata = {
      client_name: 'Signpost test client',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    };
  }

  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata() {
    return this.metadata;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    let page = await this.browser.open(url.toString());
    if (!page.redirectedTo && page.url.includes('/oauth/sign-in')) {
      page = await this.browser.submit(page, { email: this.person.email, password: this.person.password });
    }
    if (!page.redirectedTo) {
      this.consentPages.push(page.html);
      const choice = this.person.choose();
      page = await this.browser.submit(
        page,
        choice === 'deny' ? { decision: 'deny' } : { ...choice, decision: 'allow' },
      );
    }
    if (!page.redirectedTo) {
      // The page's body, not its head (styles): that is where the page says what went wrong.
      const body = page.html.slice(Math.max(0, page.html.indexOf('<body')));
      throw new Error(`the flow did not return to the client (${page.status}):\n${body.slice(0, 1500)}`);
    }
    this.callback = page.redirectedTo;
  }

  /** The authorization code of the last callback. */
  get code(): string {
    const code = this.callback?.searchParams.get('code');
    if (!code) throw new Error(`no code in the callback: ${this.callback}`);
    return code;
  }
}
