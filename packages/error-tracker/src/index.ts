/**
 * @signpost/error-tracker: error reports to Signpost (POST /errors) from browsers. Node.js
 * handlers live at `@signpost/error-tracker/node`, the React error boundary at
 * `@signpost/error-tracker/react`.
 */
import { createErrorTracker, type CaptureResult, type ErrorTracker, type ErrorTrackerOptions } from './client.js';
import { installBreadcrumbs, installBrowserContext, installGlobalHandlers, type BreadcrumbOptions } from './browser.js';
import type { Breadcrumb, CaptureContext, Severity, User } from './types.js';

export { createErrorTracker } from './client.js';
export type { CaptureResult, ErrorTracker, ErrorTrackerOptions, ErrorTrackerStats } from './client.js';
export type { BreadcrumbOptions } from './browser.js';
export { describeElement, MAX_BREADCRUMBS } from './breadcrumbs.js';
export { parseUserAgent } from './context.js';
export { MAX_FLAGS, openFeatureHook, type FlagEvaluation, type FlagRecorder, type FlagResult } from './flags.js';
export type {
  AppContext,
  AppEnvironment,
  Breadcrumb,
  BreadcrumbType,
  CaptureContext,
  DeviceContext,
  ErrorEvent,
  EventHint,
  NetworkContext,
  Severity,
  User,
} from './types.js';
export { ApiError, SdkError } from '@signpost/sdk-core';

export interface BrowserOptions extends ErrorTrackerOptions {
  /** Report uncaught errors and unhandled promise rejections. Default true. */
  captureUnhandled?: boolean;
  /** Automatic breadcrumbs: `false` for none, or turn kinds off one by one. Default all on. */
  breadcrumbs?: false | BreadcrumbOptions;
}

let current: ErrorTracker | undefined;

/** The tracker `init` created (or the one passed to `setCurrentTracker`). */
export function getCurrentTracker(): ErrorTracker | undefined {
  return current;
}

/** Makes `tracker` the one the top-level functions (`captureException`, …) use. */
export function setCurrentTracker(tracker: ErrorTracker | undefined): void {
  current = tracker;
}

/**
 * Starts error tracking in the browser: global handlers, automatic breadcrumbs, device, network and
 * page context. Calling it again replaces the previous tracker. In Node.js, use
 * `@signpost/error-tracker/node`.
 */
export function init(options: BrowserOptions): ErrorTracker {
  if (current) void current.close();
  const tracker = createErrorTracker(options);
  installBrowserContext(tracker);
  if (options.breadcrumbs !== false) installBreadcrumbs(tracker, options.breadcrumbs ?? {});
  if (options.captureUnhandled !== false) installGlobalHandlers(tracker);
  current = tracker;
  return tracker;
}

function noTracker(): undefined {
  if (typeof console !== 'undefined') console.warn('[signpost] error-tracker: call init() first');
  return undefined;
}

/** Reports an error through the current tracker. Never throws or rejects. */
export function captureException(error: unknown, context?: CaptureContext): Promise<CaptureResult | undefined> {
  return current ? current.captureException(error, context) : Promise.resolve(noTracker());
}

/** Reports a message through the current tracker (default severity `low`). */
export function captureMessage(
  message: string,
  severityOrContext?: Severity | CaptureContext,
): Promise<CaptureResult | undefined> {
  return current ? current.captureMessage(message, severityOrContext) : Promise.resolve(noTracker());
}

/** Sets the user attached to the current tracker's events; `null` clears it. */
export function setUser(user: User | null): void {
  if (current) current.setUser(user);
  else noTracker();
}

/** Adds a breadcrumb to the current tracker. */
export function addBreadcrumb(crumb: Breadcrumb): void {
  current?.addBreadcrumb(crumb);
}

/** Records a feature flag's evaluation on the current tracker: its events carry the last 100. */
export function addFeatureFlag(flag: string, result: boolean | string | number | null): void {
  current?.addFeatureFlag(flag, result);
}

/** Waits for the current tracker's reports in flight. */
export function flush(): Promise<void> {
  return current ? current.flush() : Promise.resolve();
}
