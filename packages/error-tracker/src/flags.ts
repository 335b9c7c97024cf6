/**
 * Feature flags evaluated before an error (issue 33): the last evaluations, newest last, sent with
 * each event as `flags` and shown on it in Signpost (as Sentry's `contexts.flags`). A flag
 * evaluated again moves to the end with its new result; the oldest drop out past the limit.
 */

/** A flag's result as events carry it: objects are left out (they tell little next to an error). */
export type FlagResult = boolean | string | number | null;

export interface FlagEvaluation {
  flag: string;
  result: FlagResult;
}

/** As many as the server keeps per event (and as Sentry's SDKs keep). */
export const MAX_FLAGS = 100;

export class FlagBuffer {
  private readonly flags = new Map<string, FlagResult>();

  add(flag: string, result: unknown): void {
    if (typeof flag !== 'string' || flag === '') return;
    const kept =
      typeof result === 'boolean' || typeof result === 'number' || result === null
        ? result
        : typeof result === 'string'
          ? result.slice(0, 1000)
          : undefined;
    if (kept === undefined || (typeof kept === 'number' && !Number.isFinite(kept))) return;
    const name = flag.slice(0, 200);
    this.flags.delete(name);
    this.flags.set(name, kept);
    if (this.flags.size > MAX_FLAGS) this.flags.delete(this.flags.keys().next().value!);
  }

  list(): FlagEvaluation[] {
    return [...this.flags].map(([flag, result]) => ({ flag, result }));
  }

  get size(): number {
    return this.flags.size;
  }
}

/** What the hook needs of a tracker. */
export interface FlagRecorder {
  addFeatureFlag(flag: string, result: unknown): void;
}

/**
 * An OpenFeature hook (`OpenFeature.addHooks(openFeatureHook(tracker))`, or a client's or
 * provider's hooks) that records every evaluation on the tracker: works with any provider, the
 * site manager's, the OFREP providers, others. Typed structurally, so this package needs no
 * OpenFeature dependency. `tracker` may be a function, read at each evaluation (the current one).
 */
export function openFeatureHook(tracker: FlagRecorder | (() => FlagRecorder | undefined)): {
  after(hookContext: { flagKey: string }, details: { flagKey: string; value: unknown }): void;
} {
  return {
    after(_hookContext, details) {
      const target = typeof tracker === 'function' ? tracker() : tracker;
      target?.addFeatureFlag(details.flagKey, details.value);
    },
  };
}
