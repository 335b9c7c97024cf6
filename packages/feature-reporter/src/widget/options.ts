/** The widget's public types: the person, the settings, the element and its events' details. */
import type { ErrorHandler, FetchLike } from '@signpost/sdk-core';
import type { CreatedFeature } from '../types.js';
import type { FeedbackWidgetTexts } from './texts.js';

/**
 * The person using your app, for `identify()`. `token` is what makes votes and ideas theirs: an
 * HS256 JWT your server signs with the project's board SSO secret (claims `sub` = id, `email`,
 * `name`, `company`, `iat`, `exp`). Without it the widget is anonymous.
 */
export interface WidgetUser {
  id: string;
  email?: string;
  name?: string;
  company?: { id: string; name?: string };
  token?: string;
}

/** Settings of a widget, as properties (`configure`) or attributes (`api-key`, `base-url`, `nonce`…). */
export interface FeedbackWidgetOptions {
  /** Project key with `features:write` (attribute `api-key`). */
  apiKey?: string;
  /** The public API base URL (attribute `base-url`). */
  baseUrl?: string;
  /** Nonce for the widget's `<style>` under a strict CSP (attribute `nonce`). Set it before the element connects. */
  nonce?: string;
  /** Your texts, e.g. translated. */
  texts?: Partial<FeedbackWidgetTexts>;
  /** Sent as `metadata` with each submission (the page URL is added as `url`). */
  metadata?: Record<string, unknown>;
  /** Offer the Idea/Bug choice (attribute `hide-type` turns it off). Default true. */
  showType?: boolean;
  /** Offer the e-mail field (attribute `hide-email` turns it off). Default true. */
  showEmail?: boolean;
  /** The signed-in person (same as `identify()`). */
  user?: WidgetUser | null;
  /** Your app's release, sent with bug reports (default: `@signpost/error-tracker`'s, when on the page). */
  release?: string;
  /** `de` for the German texts; default from the element's or the page's `lang`. */
  locale?: string;
  /** Offer similar ideas while a title is typed. Default true. */
  suggestions?: boolean;
  /** Offer a screenshot on bug reports (loads modern-screenshot on demand). Default true. */
  screenshot?: boolean;
  /** Receives failures (also dispatched as `signpost-feedback-error`). Default: console. */
  onError?: ErrorHandler;
  fetch?: FetchLike;
}

/** The `<signpost-feedback>` element. */
export interface FeedbackWidgetElement extends HTMLElement {
  /** Sets options; texts and fields apply at once. */
  configure(options: FeedbackWidgetOptions): void;
  /** Who is using the app (`null`: nobody); votes and ideas belong to them when `token` is given. */
  identify(user: WidgetUser | null): void;
  open(): void;
  close(): void;
  readonly isOpen: boolean;
}

/** Detail of the `signpost-feedback-submit` event. */
export interface FeedbackSubmitDetail {
  feature: CreatedFeature;
}
/** Detail of the `signpost-feedback-error` event. */
export interface FeedbackErrorDetail {
  error: unknown;
}
