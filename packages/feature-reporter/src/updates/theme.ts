/**
 * The look both embeds (`<signpost-updates>`, `<signpost-roadmap>`) share with the feedback
 * widget: the same `--signpost-*` custom properties (they cross the shadow boundary, so the host
 * sets accent, colours and font), light or dark from `prefers-color-scheme` unless `theme` is set.
 * Colours meet WCAG AA on their backgrounds in both schemes.
 */
const LIGHT = `--_bg:var(--signpost-bg,#fff);--_fg:var(--signpost-fg,#1b1e27);--_muted:var(--signpost-muted,#555c6b);--_border:var(--signpost-border,#d6d9e0);--_accent:var(--signpost-accent,#4f46e5);--_accent-fg:var(--signpost-accent-contrast,#fff);--_shadow:0 24px 60px rgb(15 18 30/.22);color-scheme:light;`;
const DARK = `--_bg:var(--signpost-bg,#1b1e27);--_fg:var(--signpost-fg,#eceef3);--_muted:var(--signpost-muted,#a4abbb);--_border:var(--signpost-border,#3a3f4d);--_accent:var(--signpost-accent,#8b85ff);--_accent-fg:var(--signpost-accent-contrast,#11131a);--_shadow:0 24px 60px rgb(0 0 0/.55);color-scheme:dark;`;

export const EMBED_BASE_CSS = `:host{${LIGHT}--_radius:var(--signpost-radius,12px);--_font:var(--signpost-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);font-family:var(--_font);color:var(--_fg)}
@media (prefers-color-scheme:dark){:host(:not([theme="light"])){${DARK}}}
:host([theme="dark"]){${DARK}}
:host([hidden]){display:none}
*{box-sizing:border-box}
button{font:inherit;color:inherit;cursor:pointer}
a{color:inherit}
:focus-visible{outline:3px solid var(--_accent);outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}`;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A `<style>` carrying the nonce a strict CSP asks for (`style-src 'nonce-…'`). */
export function styleTag(element: HTMLElement, css: string, nonce?: string): string {
  // Browsers hide the nonce attribute of a connected element under a CSP; the property keeps it.
  const value = nonce || element.nonce || element.getAttribute('nonce');
  return `<style${value ? ` nonce="${escapeHtml(value)}"` : ''}>${css}</style>`;
}
