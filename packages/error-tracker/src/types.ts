/** Severity of an error report. */
export type Severity = 'low' | 'medium' | 'high' | 'critical';

export type BreadcrumbType = 'navigation' | 'click' | 'input' | 'http' | 'console' | 'custom';

/** Something that happened before an error: a click, a navigation, a request, a console line. */
export interface Breadcrumb {
  /** ISO 8601; filled in when omitted. */
  timestamp?: string;
  type: BreadcrumbType;
  message: string;
  category?: string;
  level?: string;
  data?: Record<string, unknown>;
}

export interface DeviceContext {
  userAgent?: string;
  browser?: string;
  browserVersion?: string;
  os?: string;
  osVersion?: string;
  device?: string;
  screenResolution?: string;
  language?: string;
  timezone?: string;
}

export interface NetworkContext {
  effectiveType?: string;
  downlink?: number;
  rtt?: number;
  online?: boolean;
}

export type AppEnvironment = 'development' | 'staging' | 'production';

export interface AppContext {
  version?: string;
  environment?: AppEnvironment;
  releaseId?: string;
  sessionId?: string;
  userId?: string;
  userEmail?: string;
}

/** An error report as POST /errors takes it. `beforeSend` receives and may change it. */
export interface ErrorEvent {
  title: string;
  message: string;
  stackTrace?: string;
  errorType?: string;
  severity: Severity;
  breadcrumbs?: Breadcrumb[];
  device?: DeviceContext;
  network?: NetworkContext;
  app?: AppContext;
  url?: string;
  referrer?: string;
  timestamp?: string;
  metadata?: Record<string, unknown>;
  /** Feature flags evaluated before the error, newest last. */
  flags?: { flag: string; result: boolean | string | number | null }[];
}

/** Extra information for one capture. */
export interface CaptureContext {
  severity?: Severity;
  /** Merged into the event's `metadata`. */
  metadata?: Record<string, unknown>;
  /** Overrides the error's class name as `errorType` (the server groups by title + errorType). */
  errorType?: string;
}

/** What `beforeSend` gets besides the event. */
export interface EventHint {
  /** The value that was captured (an Error, a rejection reason, a message). */
  originalError: unknown;
  /** `captureException`, `captureMessage`, `onerror`, `onunhandledrejection`, `uncaughtException`, `unhandledRejection`, `react-error-boundary`. */
  mechanism: string;
}

export interface User {
  id?: string;
  email?: string;
}
