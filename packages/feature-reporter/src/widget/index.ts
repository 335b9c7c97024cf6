/**
 * `@signpost/feature-reporter/widget`: the `<signpost-feedback>` custom element. Importing this
 * module does nothing by itself (safe in Node.js and during server rendering); call
 * `defineFeedbackWidget()` in the browser to register the element.
 */
import { createWidgetClass } from './element.js';
import type { FeedbackWidgetElement } from './options.js';

export type {
  FeedbackErrorDetail,
  FeedbackSubmitDetail,
  FeedbackWidgetElement,
  FeedbackWidgetOptions,
  WidgetUser,
} from './options.js';
export type { FeedbackWidgetTexts } from './texts.js';
export { DEFAULT_TEXTS, GERMAN_TEXTS } from './texts.js';
export { WIDGET_CSS } from './styles.js';

/** The default tag name. */
export const FEEDBACK_WIDGET_TAG = 'signpost-feedback';

/**
 * Registers the widget element (once; later calls return the same class). Returns `undefined`
 * where there is no DOM (Node.js, server rendering), so it is safe to call anywhere.
 */
export function defineFeedbackWidget(
  tagName: string = FEEDBACK_WIDGET_TAG,
): { new (): FeedbackWidgetElement } | undefined {
  const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
  if (!registry || typeof HTMLElement === 'undefined') return undefined;
  const existing = registry.get(tagName) as { new (): FeedbackWidgetElement } | undefined;
  if (existing) return existing;
  const widget = createWidgetClass();
  registry.define(tagName, widget);
  return widget;
}

declare global {
  interface HTMLElementTagNameMap {
    'signpost-feedback': FeedbackWidgetElement;
  }
}
