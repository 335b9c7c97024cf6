/** Removes a listener added by one of the lifecycle helpers. */
export type Unsubscribe = () => void;

interface EventTargetLike {
  addEventListener(type: string, listener: () => void, options?: unknown): void;
  removeEventListener(type: string, listener: () => void): void;
}

function target(name: 'window' | 'document'): EventTargetLike | undefined {
  const value = (globalThis as Record<string, unknown>)[name] as EventTargetLike | undefined;
  return value && typeof value.addEventListener === 'function' ? value : undefined;
}

/**
 * Calls `callback` when the page is being hidden or unloaded (`visibilitychange` to hidden, or
 * `pagehide`): the last moment to send. No-op outside browsers.
 */
export function onPageHide(callback: () => void): Unsubscribe {
  const doc = target('document');
  const win = target('window');
  if (!doc && !win) return () => {};
  const onVisibility = () => {
    if ((globalThis as { document?: { visibilityState?: string } }).document?.visibilityState === 'hidden') callback();
  };
  doc?.addEventListener('visibilitychange', onVisibility);
  win?.addEventListener('pagehide', callback);
  return () => {
    doc?.removeEventListener('visibilitychange', onVisibility);
    win?.removeEventListener('pagehide', callback);
  };
}

/** Calls `callback` when the browser comes back online. No-op outside browsers. */
export function onOnline(callback: () => void): Unsubscribe {
  const win = target('window');
  if (!win) return () => {};
  win.addEventListener('online', callback);
  return () => win.removeEventListener('online', callback);
}

interface ProcessLike {
  on(event: string, listener: () => void): unknown;
  off?(event: string, listener: () => void): unknown;
  removeListener?(event: string, listener: () => void): unknown;
}

/**
 * Calls `callback` on Node.js `beforeExit` (the event loop ran dry, so asynchronous work may
 * still be started). No-op outside Node.js. An explicit `process.exit()` skips it: await the
 * SDK's `flush()` before exiting.
 */
export function onProcessExit(callback: () => void): Unsubscribe {
  const proc = (globalThis as { process?: ProcessLike }).process;
  if (!proc || typeof proc.on !== 'function' || target('window')) return () => {};
  proc.on('beforeExit', callback);
  return () => {
    if (proc.off) proc.off('beforeExit', callback);
    else proc.removeListener?.('beforeExit', callback);
  };
}

/** Whether a DOM is present (browser main thread). */
export function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}

/** Cuts `text` to at most `max` characters, ending with `…` when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
