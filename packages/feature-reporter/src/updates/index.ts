/**
 * `@signpost/feature-reporter/updates`: the `<signpost-updates>` element ("What's new"): a
 * launcher with the unread count, a side sheet of the newest changelog entries linking to their
 * board permalinks, and a one-time popup for an announcement. Importing does nothing; call
 * `defineUpdatesWidget()` in the browser (a no-op without a DOM, so safe in server rendering).
 */
import { createUpdatesClass, type UpdatesElement } from './element.js';

export type { UpdateEntry, UpdatesElement, UpdatesOptions, UpdatesPage } from './element.js';
export type { UpdatesTexts } from './texts.js';
export { UPDATES_TEXTS_DE, UPDATES_TEXTS_EN } from './texts.js';

export const UPDATES_WIDGET_TAG = 'signpost-updates';

/** Registers the element (once); `undefined` where there is no DOM. */
export function defineUpdatesWidget(tagName: string = UPDATES_WIDGET_TAG): { new (): UpdatesElement } | undefined {
  const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
  if (!registry || typeof HTMLElement === 'undefined') return undefined;
  const existing = registry.get(tagName) as { new (): UpdatesElement } | undefined;
  if (existing) return existing;
  const element = createUpdatesClass();
  registry.define(tagName, element);
  return element;
}

declare global {
  interface HTMLElementTagNameMap {
    'signpost-updates': UpdatesElement;
  }
}
