/**
 * The board's page shell and shared pieces, as preact components written with htm (tagged
 * templates: no build step, and every interpolated value is escaped by the renderer).
 */
import { html } from 'htm/preact';
import type { ComponentChildren, VNode } from 'preact';
import { BOARD_ASSETS } from './assets.ts';
import type { BoardContext } from './context.ts';
import { BOARD_LOCALES, formatDate, LOCALE_NAMES } from './i18n.ts';
import type { MessageKey } from './messages/en.ts';

/** The head's first lines, the same on every board page (full and embedded). */
function BaseHead() {
  return html`<meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <link rel="icon" href="data:," />`;
}

export { html };

export interface FeedLink {
  title: string;
  href: string;
  type: 'application/rss+xml' | 'application/atom+xml';
}

export function feedLinks(ctx: BoardContext): FeedLink[] {
  return [
    { title: ctx.t('feeds.changelogRss'), href: `${ctx.base}/feeds/changelog.rss`, type: 'application/rss+xml' },
    { title: ctx.t('feeds.changelogAtom'), href: `${ctx.base}/feeds/changelog.atom`, type: 'application/atom+xml' },
    { title: ctx.t('feeds.ideasRss'), href: `${ctx.base}/feeds/ideas.rss`, type: 'application/rss+xml' },
    { title: ctx.t('feeds.ideasAtom'), href: `${ctx.base}/feeds/ideas.atom`, type: 'application/atom+xml' },
  ];
}

type Section = 'ideas' | 'roadmap' | 'changelog' | 'submit' | 'account' | 'none';

export interface PageProps {
  ctx: BoardContext;
  title: string;
  section: Section;
  children: ComponentChildren;
  /** A short description for search engines and link previews. */
  description?: string;
}

const ACCENT = /^#[0-9a-fA-F]{6}$/;

export function Page({ ctx, title, section, children, description }: PageProps): VNode {
  const boardTitle = ctx.board.title ?? ctx.project.name;
  const accent = ctx.board.accentColor && ACCENT.test(ctx.board.accentColor) ? ctx.board.accentColor : undefined;
  const nav: [Section, MessageKey, string][] = [
    ['ideas', 'nav.ideas', '/'],
    ['roadmap', 'nav.roadmap', '/roadmap'],
    ['changelog', 'nav.changelog', '/changelog'],
    ['submit', 'nav.submit', '/submit'],
  ];
  return html`<html lang=${ctx.locale}>
    <head>
      <${BaseHead} />
      <title>${title === boardTitle ? title : `${title} · ${boardTitle}`}</title>
      ${description ? html`<meta name="description" content=${description} />` : null}
      <link rel="stylesheet" href=${`${ctx.base}${BOARD_ASSETS.css.path}`} />
      ${accent ? html`<style nonce=${ctx.nonce}>:root { --accent: ${accent}; }</style>` : null}
      ${feedLinks(ctx).map((feed) => html`<link rel="alternate" type=${feed.type} title=${feed.title} href=${feed.href} />`)}
      <script type="module" nonce=${ctx.nonce} src=${`${ctx.base}${BOARD_ASSETS.js.path}`}></script>
    </head>
    <body>
      <a class="skip" href="#content">${ctx.t('nav.skip')}</a>
      <header class="top">
        <div class="wrap top-row">
          <a class="brand" href=${`${ctx.base}/`}>
            ${ctx.board.logoUrl ? html`<img src=${ctx.board.logoUrl} alt="" width="28" height="28" />` : null}
            <span>${boardTitle}</span>
          </a>
          <${Account} ctx=${ctx} />
        </div>
        <nav class="wrap tabs" aria-label=${ctx.t('nav.main')}>
          ${nav.map(
            ([key, label, path]) =>
              html`<a href=${`${ctx.base}${path}`} aria-current=${section === key ? 'page' : undefined}>${ctx.t(label)}</a>`,
          )}
        </nav>
      </header>
      <main id="content" class="wrap" tabindex="-1">${children}</main>
      <footer class="wrap foot">
        <nav aria-label=${ctx.t('feeds.title')}>
          ${feedLinks(ctx).map((feed) => html`<a href=${feed.href}>${feed.title}</a>`)}
        </nav>
        <form method="get" action="" class="lang">
          <label for="lang">${ctx.t('language.label')}</label>
          <select id="lang" name="lang">
            ${BOARD_LOCALES.map(
              (locale) =>
                html`<option value=${locale} selected=${locale === ctx.locale}>${LOCALE_NAMES[locale]}</option>`,
            )}
          </select>
          <button type="submit">${ctx.t('language.apply')}</button>
        </form>
        <p>${ctx.t('footer.poweredBy')}</p>
      </footer>
    </body>
  </html>` as VNode;
}

/**
 * The shell of a page meant for another site's iframe (`/embed/…`): the board's stylesheet and
 * accent, no header, footer, script or form.
 */
export function EmbedPage({ ctx, title, children }: { ctx: BoardContext; title: string; children: ComponentChildren }) {
  const accent = ctx.board.accentColor && ACCENT.test(ctx.board.accentColor) ? ctx.board.accentColor : undefined;
  return html`<html lang=${ctx.locale}>
    <head>
      <${BaseHead} />
      <title>${title}</title>
      <link rel="stylesheet" href=${`${ctx.base}${BOARD_ASSETS.css.path}`} />
      ${accent ? html`<style nonce=${ctx.nonce}>:root { --accent: ${accent}; }</style>` : null}
    </head>
    <body class="embed">
      <main id="content" class="wrap">${children}</main>
    </body>
  </html>` as VNode;
}

function Account({ ctx }: { ctx: BoardContext }): VNode {
  if (!ctx.user) {
    return html`<a class="button quiet" href=${`${ctx.base}/sign-in?return=${encodeURIComponent(ctx.here)}`}
      >${ctx.t('account.signIn')}</a
    >` as VNode;
  }
  return html`<form method="post" action=${`${ctx.base}/sign-out`} class="account">
    <span>${ctx.t('account.signedInAs', { name: ctx.user.name ?? ctx.user.email })}</span>
    <${Csrf} ctx=${ctx} />
    <button type="submit" class="quiet">${ctx.t('account.signOut')}</button>
  </form>` as VNode;
}

/** The hidden CSRF field every POST form carries. */
export function Csrf({ ctx }: { ctx: BoardContext }): VNode {
  return html`<input type="hidden" name="_csrf" value=${ctx.csrfToken()} />` as VNode;
}

/**
 * A honeypot: a field people never see or fill (hidden from view and from assistive technology);
 * bots that fill every field give themselves away.
 */
export function Honeypot(): VNode {
  return html`<div class="hp" aria-hidden="true">
    <label for="website">Website</label>
    <input id="website" name="website" type="text" tabindex="-1" autocomplete="off" />
  </div>` as VNode;
}

/**
 * An item's status; a done one that shipped in a release (issue 33) says which: "Fixed in 2.1.0"
 * for a bug, "Shipped in 2.1.0" for an idea.
 */
export function StatusBadge({
  ctx,
  status,
  type,
  releasedIn,
}: {
  ctx: BoardContext;
  status: string;
  type?: string | undefined;
  releasedIn?: string | null | undefined;
}): VNode {
  const badge = html`<span class=${`badge status-${status}`}>${ctx.t(`status.${status}` as MessageKey)}</span>`;
  if (status !== 'done' || !releasedIn) return badge as VNode;
  const label = ctx.t(type === 'bug' ? 'idea.fixedIn' : 'idea.shippedIn', { version: releasedIn });
  return html`${badge} <span class="released-in" data-released-in=${releasedIn}>${label}</span>` as VNode;
}

export function DateText({ ctx, iso }: { ctx: BoardContext; iso: string }): VNode {
  return html`<time datetime=${iso}>${formatDate(ctx.locale, iso)}</time>` as VNode;
}

export function Notice({ kind, children }: { kind: 'info' | 'error'; children: ComponentChildren }): VNode {
  return html`<div class=${`notice ${kind}`} role=${kind === 'error' ? 'alert' : 'status'}>${children}</div>` as VNode;
}

export function Errors({ errors }: { errors: string[] }): VNode | null {
  if (errors.length === 0) return null;
  return html`<div class="notice error" role="alert">
    <ul>
      ${errors.map((error) => html`<li>${error}</li>`)}
    </ul>
  </div>` as VNode;
}
