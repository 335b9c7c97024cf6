/**
 * @signpost/error-tracker/node: error tracking for Node.js 18+: `uncaughtException` and
 * `unhandledRejection`, console and `fetch` breadcrumbs, and the server's OS and runtime as context.
 */
import { arch, platform, release } from 'node:os';
import { createErrorTracker, type ErrorTracker, type ErrorTrackerOptions } from './client.js';
import { installBreadcrumbs } from './browser.js';
import { baseDevice } from './context.js';
import { getCurrentTracker, setCurrentTracker } from './index.js';
import type { DeviceContext } from './types.js';

export {
  addBreadcrumb,
  addFeatureFlag,
  captureException,
  captureMessage,
  flush,
  getCurrentTracker,
  openFeatureHook,
  setUser,
} from './index.js';
export type { CaptureResult, ErrorTracker, ErrorTrackerOptions } from './client.js';

export interface NodeOptions extends ErrorTrackerOptions {
  /** Report `uncaughtException` and `unhandledRejection`. Default true. */
  captureUnhandled?: boolean;
  /**
   * After reporting an uncaught exception, print it and exit with code 1 as Node.js would, unless
   * the app has its own `uncaughtException` listener. Default true.
   */
  exitOnUncaughtException?: boolean;
  /**
   * After reporting an unhandled rejection: `exit` (print and exit with code 1, Node's default
   * behaviour), `warn` (print and go on) or `none` (only report). Default `exit`.
   */
  unhandledRejection?: 'exit' | 'warn' | 'none';
  /** How long to wait for the report before exiting. Default 2000 ms. */
  shutdownTimeoutMs?: number;
  /** Console and `fetch` breadcrumbs: `false` for none. Default both on. */
  breadcrumbs?: false | { console?: boolean; fetch?: boolean };
}

const OS_NAMES: Record<string, string> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  aix: 'AIX',
  sunos: 'SunOS',
};

/** Device context of a Node.js process. */
export function nodeDevice(): DeviceContext {
  return {
    ...baseDevice(),
    userAgent: `Node.js/${process.version} (${platform()}; ${arch()})`,
    os: OS_NAMES[platform()] ?? platform(),
    osVersion: release(),
    device: 'server',
  };
}

function printError(error: unknown, prefix = ''): void {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  process.stderr.write(`${prefix}${text}\n`);
}

/** Starts error tracking in Node.js. Calling it again replaces the previous tracker. */
export function init(options: NodeOptions): ErrorTracker {
  getCurrentTracker()?.close();
  const tracker = createErrorTracker({ offline: false, ...options });
  const device = nodeDevice();
  tracker.internal.setDeviceProvider(() => device);
  if (options.breadcrumbs !== false) {
    installBreadcrumbs(tracker, {
      clicks: false,
      inputs: false,
      navigation: false,
      xhr: false,
      console: options.breadcrumbs?.console ?? true,
      fetch: options.breadcrumbs?.fetch ?? true,
    });
  }
  if (options.captureUnhandled !== false) {
    const timeout = options.shutdownTimeoutMs ?? 2000;
    const reportThen = (error: unknown, mechanism: string, then: () => void) => {
      const sent = tracker.internal.capture(
        error,
        { severity: 'critical', metadata: { mechanism, handled: false } },
        mechanism,
      );
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        then();
      };
      // Everything in flight (the report and the session's crash) is sent before exiting.
      void sent.then(() => tracker.flush()).then(finish, finish);
      setTimeout(finish, timeout).unref();
    };
    const onUncaught = (error: Error) => {
      reportThen(error, 'uncaughtException', () => {
        if (options.exitOnUncaughtException === false || process.listenerCount('uncaughtException') > 1) return;
        printError(error);
        process.exit(1);
      });
    };
    const mode = options.unhandledRejection ?? 'exit';
    const onRejection = (reason: unknown) => {
      reportThen(reason, 'unhandledRejection', () => {
        if (mode === 'none') return;
        if (mode === 'warn') return printError(reason, 'Unhandled promise rejection: ');
        printError(reason);
        process.exit(1);
      });
    };
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onRejection);
    tracker.internal.addCleanup(() => {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onRejection);
    });
  }
  setCurrentTracker(tracker);
  return tracker;
}
