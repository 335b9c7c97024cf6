/**
 * A dependency loaded on first use instead of at start. An idle server should hold only what
 * every request needs: node-postgres on a SQLite server, the HTML sanitiser before the first
 * changelog write or the feed writer before the first feed are memory for nothing (each is
 * several MB of heap and compiled code; the bench's idle RSS row measures the sum).
 *
 * `require` keeps the call sites synchronous; Node 24 loads ES modules through it as well.
 */
import { createRequire } from 'node:module';

export function lazyModule<T>(specifier: string, parentUrl: string): () => T {
  const require = createRequire(parentUrl);
  let loaded: T | undefined;
  return () => {
    loaded ??= require(specifier) as T;
    return loaded;
  };
}
