/**
 * `@signpost/feature-reporter/roadmap`: the `<signpost-roadmap>` element, the project's public
 * roadmap columns (internal items never reach it: the API leaves them out), with vote buttons when
 * asked for and the key may vote. Importing does nothing; call `defineRoadmapWidget()` in the
 * browser (a no-op without a DOM). For a page without your JavaScript, the board serves the same
 * columns as an iframe page: `/b/<slug>/embed/roadmap`.
 */
import { createRoadmapClass, type RoadmapElement } from './element.js';

export type { RoadmapElement, RoadmapOptions } from './element.js';
export type { RoadmapTexts } from './texts.js';
export { ROADMAP_TEXTS_DE, ROADMAP_TEXTS_EN } from './texts.js';

export const ROADMAP_WIDGET_TAG = 'signpost-roadmap';

/** Registers the element (once); `undefined` where there is no DOM. */
export function defineRoadmapWidget(tagName: string = ROADMAP_WIDGET_TAG): { new (): RoadmapElement } | undefined {
  const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
  if (!registry || typeof HTMLElement === 'undefined') return undefined;
  const existing = registry.get(tagName) as { new (): RoadmapElement } | undefined;
  if (existing) return existing;
  const element = createRoadmapClass();
  registry.define(tagName, element);
  return element;
}

declare global {
  interface HTMLElementTagNameMap {
    'signpost-roadmap': RoadmapElement;
  }
}
