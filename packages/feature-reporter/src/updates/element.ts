import { createTransport, type ErrorHandler, type FetchLike, type Transport } from '@signpost/sdk-core';
import { EMBED_BASE_CSS, escapeHtml as esc, styleTag } from './theme.js';
import { embedLanguage, UPDATES_TEXTS_DE, UPDATES_TEXTS_EN, type UpdatesTexts } from './texts.js';

/** An entry of GET /updates. */
export interface UpdateEntry {
  id: string;
  summary: string;
  statusKey: string;
  statusLabel: string;
  publishedAt: string;
  announcement: boolean;
  unread: boolean;
  /** The entry's permalink on the board. */
  url: string;
}

/** The answer of GET /updates. */
export interface UpdatesPage {
  entries: UpdateEntry[];
  unread: number;
  seenThrough: string | null;
  identified: boolean;
}

/** Settings of `<signpost-updates>`, as properties (`configure`) or attributes. */
export interface UpdatesOptions {
  /** A publishable key with `features:read` (attribute `api-key`). */
  apiKey?: string;
  /** The public API base URL (attribute `base-url`). */
  baseUrl?: string;
  /**
   * Your server's HS256 JWT for the signed-in user (claims `sub`, `iat`, `exp`), signed with the
   * project's board SSO secret (attribute `user-token`). With it, what the user has seen is kept by
   * Signpost and is the same in every browser; without it, in this browser's localStorage.
   */
  userToken?: string;
  /** Nonce for the element's `<style>` under a strict CSP (attribute `nonce`). */
  nonce?: string;
  /** Your texts; default English or German from `lang`. */
  texts?: Partial<UpdatesTexts>;
  onError?: ErrorHandler;
  fetch?: FetchLike;
}

/** The `<signpost-updates>` element. */
export interface UpdatesElement extends HTMLElement {
  configure(options: UpdatesOptions): void;
  /** Reads the entries and unread count again. */
  refresh(): Promise<void>;
  open(): void;
  close(): void;
  readonly isOpen: boolean;
  /** The unread count shown on the badge. */
  readonly unread: number;
}

const CSS = `${EMBED_BASE_CSS}
:host{display:inline-block}
:host(:not([position="inline"])) .launcher{position:fixed;bottom:var(--signpost-offset,20px);left:var(--signpost-offset,20px);z-index:var(--signpost-z-index,2147483000)}
:host([position="bottom-right"]) .launcher{left:auto;right:var(--signpost-offset,20px)}
.launcher{display:inline-flex;align-items:center;gap:.5em;padding:.6em 1em;border:1px solid var(--_border);border-radius:999px;background:var(--_bg);font-weight:600;box-shadow:0 6px 18px rgb(15 18 30/.18)}
.badge{min-width:1.5em;padding:0 .45em;border-radius:999px;background:var(--_accent);color:var(--_accent-fg);font-size:.8em;line-height:1.5em;text-align:center}
.badge[hidden]{display:none}
dialog{padding:0;border:1px solid var(--_border);background:var(--_bg);color:var(--_fg);font-family:var(--_font);box-shadow:var(--_shadow)}
dialog::backdrop{background:rgb(10 12 20/.35)}
.sheet{margin:0 0 0 auto;height:100vh;max-height:100vh;width:min(400px,100vw);border-width:0 0 0 1px}
.pop{width:min(420px,calc(100vw - 32px));border-radius:var(--_radius)}
.in{padding:18px 20px}
.head{display:flex;align-items:center;justify-content:space-between;gap:12px}
h2{margin:0;font-size:1.15rem}
.x{border:0;background:none;font-size:1.5rem;line-height:1;padding:.1em .35em;border-radius:6px}
ul{list-style:none;margin:12px 0;padding:0}
li{padding:12px 0;border-top:1px solid var(--_border)}
li a{font-weight:600}
.meta{display:flex;gap:.6em;flex-wrap:wrap;margin-top:4px;color:var(--_muted);font-size:.85em}
.new{color:var(--_accent);font-weight:700}
.muted{color:var(--_muted)}
.go{display:inline-block;margin-top:12px;padding:.55em 1em;border:0;border-radius:8px;background:var(--_accent);color:var(--_accent-fg);font-weight:600;text-decoration:none}
.actions{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.ghost{background:none;border:1px solid var(--_border);color:var(--_fg)}`;

let counter = 0;
const STORAGE = 'signpost.updates.seen:';

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function createUpdatesClass(): { new (): UpdatesElement } {
  return class SignpostUpdates extends HTMLElement implements UpdatesElement {
    static get observedAttributes() {
      return ['api-key', 'base-url', 'user-token', 'lang'];
    }

    private _o: UpdatesOptions = {};
    private _root = this.attachShadow({ mode: 'open' });
    private _id = `spu${++counter}`;
    private _page: UpdatesPage | undefined;
    private _failed = false;
    private _transport: Transport | undefined;
    private _popped = new Set<string>();

    connectedCallback() {
      if (!this._root.firstChild) this._render();
      void this.refresh();
    }

    attributeChangedCallback() {
      this._transport = undefined;
      if (this.isConnected && this._root.firstChild) {
        this._render();
        void this.refresh();
      }
    }

    configure(options: UpdatesOptions) {
      this._o = { ...this._o, ...options, texts: { ...this._o.texts, ...options.texts } };
      this._transport = undefined;
      if (this._root.firstChild) {
        this._render();
        void this.refresh();
      }
    }

    get isOpen() {
      return !!this._q<HTMLDialogElement>('.sheet')?.open;
    }

    get unread() {
      return this._page?.unread ?? 0;
    }

    private get _t(): UpdatesTexts {
      return { ...(embedLanguage(this) === 'de' ? UPDATES_TEXTS_DE : UPDATES_TEXTS_EN), ...this._o.texts };
    }

    private _opt(name: 'apiKey' | 'baseUrl' | 'userToken', attribute: string) {
      return this._o[name] ?? this.getAttribute(attribute) ?? undefined;
    }

    private _q<T extends Element>(selector: string) {
      return this._root.querySelector<T>(selector);
    }

    private _emit(type: string, detail: unknown) {
      this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    }

    private _client(): Transport | undefined {
      const apiKey = this._opt('apiKey', 'api-key');
      if (!apiKey) return undefined;
      const baseUrl = this._opt('baseUrl', 'base-url');
      this._transport ??= createTransport({
        apiKey,
        maxRetries: 2,
        ...(baseUrl ? { baseUrl } : {}),
        ...(this._o.fetch ? { fetch: this._o.fetch } : {}),
      });
      return this._transport;
    }

    private _headers(): Record<string, string> {
      const token = this._opt('userToken', 'user-token');
      return token ? { 'X-Signpost-User': token } : {};
    }

    private _storageKey() {
      return STORAGE + (this._opt('apiKey', 'api-key') ?? '');
    }

    private _fail(error: unknown) {
      (this._o.onError ?? ((e: unknown) => console.warn('signpost-updates:', e)))(error);
      this._emit('signpost-updates-error', { error });
    }

    async refresh() {
      const client = this._client();
      if (!client) return;
      const since = this._opt('userToken', 'user-token') ? null : storage()?.getItem(this._storageKey());
      try {
        const { data } = await client.request<UpdatesPage>('GET', '/updates', {
          query: since ? { since } : {},
          headers: this._headers(),
        });
        this._page = data;
        this._failed = false;
      } catch (error) {
        this._failed = true;
        this._fail(error);
      }
      this._paint();
      const announce = this._page?.entries.find((e) => e.unread && e.announcement && !this._popped.has(e.id));
      if (announce && !this.isOpen) this._popup(announce);
    }

    open() {
      const sheet = this._q<HTMLDialogElement>('.sheet');
      if (!sheet || sheet.open) return;
      sheet.showModal();
      this._q('.launcher')?.setAttribute('aria-expanded', 'true');
      this._q<HTMLElement>('.sheet h2')?.focus();
      this._emit('signpost-updates-open', {});
      void this._markSeen();
    }

    close() {
      for (const dialog of this._root.querySelectorAll('dialog')) if (dialog.open) dialog.close();
    }

    /** Everything shown counts as seen: on the server for an identified user, else in this browser. */
    private async _markSeen(through?: string) {
      const page = this._page;
      const newest = through ?? page?.entries[0]?.publishedAt;
      if (!page || !newest) return;
      if (page.identified) {
        try {
          await this._client()?.request('PUT', '/updates/seen', {
            body: { through: newest },
            headers: this._headers(),
          });
        } catch (error) {
          this._fail(error);
          return;
        }
      } else {
        const store = storage();
        const before = store?.getItem(this._storageKey());
        try {
          if (!before || before < newest) store?.setItem(this._storageKey(), newest);
        } catch {
          // Storage blocked: the count comes back on the next page.
        }
      }
      for (const e of page.entries) e.unread &&= e.publishedAt > newest;
      page.unread = page.entries.filter((e) => e.unread).length;
      page.seenThrough = newest;
      this._paintBadge();
      this._emit('signpost-updates-seen', { through: newest });
    }

    private _render() {
      const t = this._t;
      const id = this._id;
      this._root.innerHTML = `${styleTag(this, CSS, this._o.nonce)}
<button class="launcher" part="launcher" type="button" aria-haspopup="dialog" aria-expanded="false" aria-controls="${id}-sheet"><span>${esc(t.launcher)}</span><span class="badge" part="badge" aria-hidden="true" hidden></span><span class="sr-only count"></span></button>
<dialog class="sheet" part="panel" id="${id}-sheet" aria-labelledby="${id}-h"><div class="in">
 <div class="head"><h2 id="${id}-h" part="heading" tabindex="-1">${esc(t.heading)}</h2><button class="x" part="close" type="button" aria-label="${esc(t.close)}">&times;</button></div>
 <div class="list" part="list"></div>
</div></dialog>
<dialog class="pop" part="announcement" aria-labelledby="${id}-ah"><div class="in"></div></dialog>`;
      this._q('.launcher')!.addEventListener('click', () => this.open());
      this._q('.x')!.addEventListener('click', () => this.close());
      const sheet = this._q<HTMLDialogElement>('.sheet')!;
      for (const dialog of this._root.querySelectorAll('dialog'))
        dialog.addEventListener('click', (event) => event.target === dialog && dialog.close());
      sheet.addEventListener('close', () => {
        const launcher = this._q<HTMLElement>('.launcher')!;
        launcher.setAttribute('aria-expanded', 'false');
        launcher.focus();
        this._paint();
        this._emit('signpost-updates-close', {});
      });
      this._paint();
    }

    private _paintBadge() {
      const t = this._t;
      const n = this._page?.unread ?? 0;
      const badge = this._q<HTMLElement>('.badge');
      if (!badge) return;
      badge.textContent = n > 99 ? '99+' : String(n);
      badge.hidden = n === 0;
      this._q('.count')!.textContent = n ? `, ${t.unread.replace('{n}', String(n))}` : '';
    }

    private _paint() {
      const list = this._q<HTMLElement>('.list');
      if (!list) return;
      this._paintBadge();
      // An open panel keeps its "New" marks until it closes, so the reader sees what was new.
      if (this.isOpen && this._page) return;
      const t = this._t;
      const page = this._page;
      const date = new Intl.DateTimeFormat(embedLanguage(this), { dateStyle: 'medium' });
      if (!page) {
        list.innerHTML = this._failed ? `<p class="muted" role="alert">${esc(t.failed)}</p>` : '';
        return;
      }
      const all = page.entries[0]?.url.replace(/\/[^/]*$/, '');
      list.innerHTML = page.entries.length
        ? `<ul>${page.entries
            .map(
              (e) =>
                `<li part="entry"><a href="${esc(e.url)}" target="_blank" rel="noopener">${esc(e.summary)}</a><div class="meta">${
                  e.unread ? `<span class="new">${esc(t.isNew)}</span>` : ''
                }<span>${esc(e.statusLabel)}</span><time datetime="${esc(e.publishedAt)}">${esc(
                  date.format(new Date(e.publishedAt)),
                )}</time></div></li>`,
            )
            .join(
              '',
            )}</ul>${all ? `<a class="go" part="all" href="${esc(all)}" target="_blank" rel="noopener">${esc(t.all)}</a>` : ''}`
        : `<p class="muted">${esc(t.empty)}</p>`;
    }

    /** The one-time popup of an announcement; closing it marks the entry seen. */
    private _popup(entry: UpdateEntry) {
      const t = this._t;
      const pop = this._q<HTMLDialogElement>('.pop')!;
      this._popped.add(entry.id);
      pop.querySelector('.in')!.innerHTML = `<p class="muted">${esc(t.announcement)}</p><h2 id="${this._id}-ah">${esc(
        entry.summary,
      )}</h2><div class="actions"><a class="go" href="${esc(entry.url)}" target="_blank" rel="noopener">${esc(
        t.readMore,
      )}</a><button class="go ghost" type="button">${esc(t.dismiss)}</button></div>`;
      pop.querySelector('button')!.addEventListener('click', () => pop.close());
      pop.addEventListener('close', () => void this._markSeen(entry.publishedAt), { once: true });
      pop.showModal();
      pop.querySelector<HTMLElement>('button')!.focus();
    }
  };
}
