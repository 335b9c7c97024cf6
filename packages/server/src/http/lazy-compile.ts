/**
 * Compilation deferred to first use (validators in validation.ts, response serializers in
 * lazy-serializer.ts), with a way to force all of it: a schema that does not compile would
 * otherwise show only when a client first calls its route, so a test compiles every one.
 */
const waiting = new Set<() => void>();

/** `compile` runs on the first call of `get`, or on `compileEverything`, whichever comes first. */
export function onFirstUse<T>(compile: () => T): () => T {
  let compiled: T | undefined;
  const force = () => {
    compiled ??= compile();
    waiting.delete(force);
    return compiled;
  };
  waiting.add(force);
  return () => compiled ?? force();
}

/** Compiles everything still waiting; throws the first compile error. */
export function compileEverything(): number {
  const count = waiting.size;
  for (const force of [...waiting]) force();
  return count;
}
