/**
 * Which reads may leave the event loop. node:sqlite runs a query on the thread that calls it, so
 * one long management query (a list over millions of rows, an export) would stop every public
 * request for its duration. Work run inside `readOffThread` reads through SQLite's worker
 * connections instead (sqlite-worker-pool.ts); everything else, the public API's hot paths
 * included, keeps reading on the event loop, where a small query costs the least.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const context = new AsyncLocalStorage<true>();

/** Runs `fn` (and all it awaits) with reads off the event loop where the database can. */
export function readOffThread<T>(fn: () => T): T {
  return context.run(true, fn);
}

export const readsOffThread = (): boolean => context.getStore() === true;

/**
 * An `onRequest` hook (Fastify's callback form) that runs the rest of the request, handler
 * included, with its reads off the event loop: for the surfaces whose reads may be long (the
 * management API, the hosted MCP), registered in their plugins' scope only.
 */
export function readOffThreadHook(_request: unknown, _reply: unknown, done: () => void): void {
  readOffThread(done);
}
