/**
 * The widget's stylesheet. Theme it from outside with the `--signpost-*` custom properties (they
 * cross the shadow boundary) or with `::part(…)`; light and dark follow `prefers-color-scheme`
 * unless the element has `theme="light"` or `theme="dark"`.
 */
const LIGHT = `
  --_bg: var(--signpost-bg, #ffffff);
  --_fg: var(--signpost-fg, #1b1e27);
  --_muted: var(--signpost-muted, #5b6272);
  --_border: var(--signpost-border, #d6d9e0);
  --_field: var(--signpost-field-bg, #f7f8fa);
  --_accent: var(--signpost-accent, #4f46e5);
  --_accent-fg: var(--signpost-accent-contrast, #ffffff);
  --_danger: var(--signpost-danger, #c0262d);
  --_success: var(--signpost-success, #1a7f45);
  --_shadow: 0 24px 60px rgb(15 18 30 / 0.22);
  color-scheme: light;`;
const DARK = `
  --_bg: var(--signpost-bg, #1b1e27);
  --_fg: var(--signpost-fg, #eceef3);
  --_muted: var(--signpost-muted, #a4abbb);
  --_border: var(--signpost-border, #3a3f4d);
  --_field: var(--signpost-field-bg, #252935);
  --_accent: var(--signpost-accent, #8b85ff);
  --_accent-fg: var(--signpost-accent-contrast, #11131a);
  --_danger: var(--signpost-danger, #ff7b80);
  --_success: var(--signpost-success, #5fd68f);
  --_shadow: 0 24px 60px rgb(0 0 0 / 0.55);
  color-scheme: dark;`;

export const WIDGET_CSS = `
:host { ${LIGHT}
  --_radius: var(--signpost-radius, 12px);
  --_font: var(--signpost-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  font-family: var(--_font);
  display: inline-block;
}
@media (prefers-color-scheme: dark) { :host(:not([theme="light"])) { ${DARK} } }
:host([theme="dark"]) { ${DARK} }
:host([hidden]) { display: none; }
:host(:not([position="inline"])) .trigger {
  position: fixed; bottom: var(--signpost-offset, 20px); right: var(--signpost-offset, 20px);
  z-index: var(--signpost-z-index, 2147483000);
}
:host([position="bottom-left"]) .trigger { right: auto; left: var(--signpost-offset, 20px); }
* { box-sizing: border-box; }
button, input, textarea { font: inherit; color: inherit; }
.trigger {
  display: inline-flex; align-items: center; gap: .5em; cursor: pointer;
  padding: .65em 1.1em; border: 0; border-radius: 999px;
  background: var(--_accent); color: var(--_accent-fg); font-weight: 600; font-size: .95rem;
  box-shadow: 0 6px 18px rgb(15 18 30 / 0.25);
}
.trigger:hover { filter: brightness(1.08); }
:focus-visible { outline: 3px solid var(--_accent); outline-offset: 2px; }
dialog {
  width: min(440px, calc(100vw - 32px)); max-height: calc(100vh - 32px); padding: 0;
  border: 1px solid var(--_border); border-radius: var(--_radius);
  background: var(--_bg); color: var(--_fg); box-shadow: var(--_shadow); font-family: var(--_font);
}
dialog::backdrop { background: rgb(10 12 20 / 0.5); }
.inner { padding: 22px 22px 20px; }
.head { display: flex; align-items: flex-start; justify-content: space-between; gap: 12px; }
h2 { margin: 0; font-size: 1.2rem; line-height: 1.3; }
.intro { margin: 6px 0 16px; color: var(--_muted); font-size: .92rem; line-height: 1.45; }
.close {
  flex: none; width: 32px; height: 32px; border: 0; border-radius: 8px; cursor: pointer;
  background: transparent; color: var(--_muted); font-size: 1.4rem; line-height: 1;
}
.close:hover { background: var(--_field); color: var(--_fg); }
form { display: grid; gap: 14px; margin: 0; }
fieldset { display: flex; gap: 8px; margin: 0; padding: 0; border: 0; }
legend { padding: 0; margin-bottom: 6px; font-size: .85rem; font-weight: 600; }
.choice { flex: 1; position: relative; }
.choice input { position: absolute; opacity: 0; inset: 0; margin: 0; cursor: pointer; }
.choice span {
  display: block; text-align: center; padding: .5em; border: 1px solid var(--_border);
  border-radius: calc(var(--_radius) - 4px); font-size: .92rem; background: var(--_field);
}
.choice input:checked + span { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); font-weight: 600; }
.choice input:focus-visible + span { outline: 3px solid var(--_accent); outline-offset: 2px; }
.field { display: grid; gap: 6px; }
label { font-size: .85rem; font-weight: 600; }
.optional { font-weight: 400; color: var(--_muted); }
input[type="text"], input[type="email"], textarea {
  width: 100%; padding: .6em .75em; border: 1px solid var(--_border);
  border-radius: calc(var(--_radius) - 4px); background: var(--_field); font-size: .95rem;
}
textarea { min-height: 7.5em; resize: vertical; line-height: 1.45; }
input:focus-visible, textarea:focus-visible { outline: 2px solid var(--_accent); outline-offset: 0; border-color: var(--_accent); }
[aria-invalid="true"] { border-color: var(--_danger); }
.meta { display: flex; justify-content: space-between; gap: 8px; font-size: .8rem; color: var(--_muted); }
.error { margin: 0; color: var(--_danger); font-size: .82rem; }
.count { margin-left: auto; }
.alert { margin: 0; flex: 1; align-self: center; }
.alert:not(:empty) { padding: .6em .75em; border-radius: calc(var(--_radius) - 4px);
  border: 1px solid var(--_danger); color: var(--_danger); font-size: .88rem;
}
.actions { display: flex; justify-content: flex-end; align-items: flex-start; gap: 12px; }
.submit { flex: none; }
.submit, .done button {
  padding: .65em 1.2em; border: 0; border-radius: calc(var(--_radius) - 4px); cursor: pointer;
  background: var(--_accent); color: var(--_accent-fg); font-weight: 600;
}
.submit[disabled] { opacity: .65; cursor: progress; }
.done { text-align: center; padding: 10px 0 4px; }
.done p { margin: 4px 0 18px; color: var(--_success); font-weight: 600; }
.head .mine-toggle { margin-left: auto; padding: .35em .7em; border: 1px solid var(--_border); border-radius: 999px;
  background: transparent; cursor: pointer; font-size: .85rem; color: var(--_fg);
}
.suggest { border: 1px solid var(--_border); border-radius: calc(var(--_radius) - 4px); padding: 10px 12px; background: var(--_field); }
.suggest p { margin: 0 0 6px; font-size: .84rem; color: var(--_muted); }
.suggest strong { color: var(--_fg); }
.suggest ul, .mine ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; }
.suggest li, .mine li { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; font-size: .9rem; }
.s-title { flex: 1 1 12em; font-weight: 600; }
.s-meta { display: flex; gap: 8px; align-items: center; color: var(--_muted); font-size: .8rem; }
.badge { padding: .1em .55em; border-radius: 999px; border: 1px solid var(--_border); font-size: .78rem; color: var(--_fg); }
.vote { padding: .3em .8em; border: 1px solid var(--_accent); border-radius: 999px; cursor: pointer;
  background: transparent; color: var(--_fg); font-weight: 600; font-size: .85rem;
}
.vote[aria-pressed="true"] { background: var(--_accent); color: var(--_accent-fg); }
.shot-add, .shot-remove, .back { padding: .45em .9em; border: 1px dashed var(--_border); border-radius: calc(var(--_radius) - 4px);
  background: transparent; cursor: pointer; font-size: .88rem; color: var(--_fg);
}
.shot figure { margin: 0; display: grid; gap: 6px; }
.shot img { max-width: 100%; max-height: 160px; object-fit: contain; border: 1px solid var(--_border); border-radius: 6px; }
.shot figcaption { font-size: .8rem; color: var(--_muted); display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.mine { display: grid; gap: 12px; }
.mine h3 { margin: 8px 0 0; font-size: 1rem; }
.mine .empty { color: var(--_muted); }
.sr-only {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
[hidden] { display: none !important; }
@media (prefers-reduced-motion: no-preference) {
  dialog[open] { animation: signpost-in .16s ease-out; }
  @keyframes signpost-in { from { opacity: 0; transform: translateY(8px) scale(.98); } }
}
`;
