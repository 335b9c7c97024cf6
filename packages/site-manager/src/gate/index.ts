/**
 * `@signpost/site-manager/gate`: a ready-made maintenance screen. `full` maintenance shows a modal
 * page that blocks the app (the rest of the page is inert), `custom` shows the project's
 * `customHtml` in a sandboxed frame (no scripts), `banner` shows a notice at the top. Whitelisted
 * visitors pass. Safe to import anywhere; it renders only in a browser.
 */
import type { SiteManager } from '../manager.js';
import type { MaintenanceState } from '../whitelist.js';

export interface GateTexts {
  heading: string;
  body: string;
  /** `{time}` is filled with the expected restoration time. */
  until: string;
  statusLink: string;
  banner: string;
}

export const DEFAULT_GATE_TEXTS: GateTexts = {
  heading: 'We’ll be right back',
  body: 'We are doing some maintenance right now. Thank you for your patience.',
  until: 'Expected back {time}.',
  statusLink: 'Current status',
  banner: 'Maintenance is in progress: some features may be unavailable.',
};

export interface GateOptions {
  /** Where the gate's host element goes. Default `document.body`. */
  container?: HTMLElement;
  texts?: Partial<GateTexts>;
  /** Nonce for the gate's `<style>` under a strict CSP. */
  nonce?: string;
  /** Locale for the restoration time. Default: the browser's. */
  locale?: string;
}

const CSS = `
:host { all: initial; }
* { box-sizing: border-box; }
dialog { width: 100vw; height: 100vh; max-width: none; max-height: none; margin: 0; border: 0; padding: 0;
  background: var(--signpost-gate-bg, #f6f7f9); color: var(--signpost-gate-fg, #1b1e27);
  font-family: var(--signpost-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif); }
dialog::backdrop { background: #f6f7f9; }
.page { min-height: 100%; display: grid; place-items: center; padding: 32px; text-align: center; }
.page div { max-width: 34rem; }
h1 { font-size: 1.8rem; margin: 0 0 12px; }
p { line-height: 1.5; margin: 0 0 10px; color: inherit; }
a { color: var(--signpost-accent, #4f46e5); }
iframe { width: 100%; height: 100%; border: 0; display: block; background: #fff; }
.banner { position: fixed; top: 0; left: 0; right: 0; z-index: 2147483000; padding: 10px 16px; text-align: center;
  font: 14px/1.4 var(--signpost-font, system-ui, sans-serif);
  background: var(--signpost-banner-bg, #fff4d6); color: var(--signpost-banner-fg, #5c4300); border-bottom: 1px solid #f0d98a; }
@media (prefers-color-scheme: dark) {
  dialog, dialog::backdrop { background: var(--signpost-gate-bg, #15171e); color: var(--signpost-gate-fg, #eceef3); }
  .banner { background: var(--signpost-banner-bg, #3d3214); color: var(--signpost-banner-fg, #ffe7a3); border-color: #5c4a1a; }
}`;

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Shows the gate whenever the manager says so; returns a function that removes it. */
export function mountMaintenanceGate(manager: SiteManager, options: GateOptions = {}): () => void {
  if (typeof document === 'undefined') return () => {};
  const t = { ...DEFAULT_GATE_TEXTS, ...options.texts };
  const host = document.createElement('div');
  host.setAttribute('data-signpost-gate', '');
  const root = host.attachShadow({ mode: 'open' });
  (options.container ?? document.body).append(host);
  let shown = '';

  function when(state: MaintenanceState): string {
    if (!state.expectedRestoration) return '';
    const date = new Date(state.expectedRestoration);
    if (Number.isNaN(date.getTime())) return '';
    const time = new Intl.DateTimeFormat(options.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
    return esc(t.until.replace('{time}', time));
  }

  function render() {
    const state = manager.maintenance();
    const key = JSON.stringify(state);
    if (key === shown) return;
    shown = key;
    const style = `<style${options.nonce ? ` nonce="${esc(options.nonce)}"` : ''}>${CSS}</style>`;
    const link =
      state.statusPageUrl && /^https?:/i.test(state.statusPageUrl)
        ? ` <a href="${esc(state.statusPageUrl)}" rel="noopener">${esc(t.statusLink)}</a>`
        : '';
    if (state.blocked) {
      const content =
        state.type === 'custom' && state.customHtml
          ? `<iframe title="${esc(t.heading)}" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" srcdoc="${esc(state.customHtml)}"></iframe>`
          : `<div class="page"><div><h1 id="signpost-gate-heading">${esc(t.heading)}</h1><p>${esc(t.body)}</p><p>${when(state)}${link}</p></div></div>`;
      root.innerHTML = `${style}<dialog part="gate" aria-labelledby="signpost-gate-heading" aria-label="${esc(t.heading)}">${content}</dialog>`;
      const dialog = root.querySelector('dialog')!;
      // The gate cannot be dismissed: Escape is refused, and a forced close re-opens it. Browsers
      // with close-watcher rules (Chromium 13x on) let a second Escape without user activation
      // skip `cancel`; stopping the key itself keeps the dialog from closing at all.
      dialog.addEventListener('keydown', (event) => {
        if (event.key === 'Escape') event.preventDefault();
      });
      dialog.addEventListener('cancel', (event) => event.preventDefault());
      dialog.addEventListener('close', () => {
        if (manager.maintenance().blocked && dialog.isConnected) dialog.showModal();
      });
      dialog.showModal();
    } else if (state.banner) {
      root.innerHTML = `${style}<div class="banner" part="banner" role="status">${esc(t.banner)} ${when(state)}${link}</div>`;
    } else {
      root.innerHTML = '';
    }
  }

  render();
  const stop = manager.on('change', render);
  return () => {
    stop();
    host.remove();
  };
}
