/**
 * Release health's writes, as the surfaces call them: the session items of one Sentry envelope
 * in one transaction (`recordSessionItems`), and version checks counted in memory and written
 * every second by the worker (`countVersionCheck`, tally.ts).
 */
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import { type SessionAggregate, type SessionUpdate, sessionAggregates, sessionUpdate } from './parse.ts';
import { applySessionAggregate, applySessionUpdate } from './store.ts';

type Json = Record<string, unknown>;

export interface SessionItem {
  type: 'session' | 'sessions';
  payload: Json;
}

/**
 * Reads every item first, then writes them all in one transaction. Returns how many items were
 * counted and how many ignored (invalid, outside the 5-day window, or without a release).
 */
export async function recordSessionItems(
  db: Database,
  scope: Scope,
  items: readonly SessionItem[],
  now = new Date(),
): Promise<{ counted: number; ignored: number }> {
  const updates: SessionUpdate[] = [];
  const aggregates: SessionAggregate[] = [];
  let ignored = 0;
  for (const item of items) {
    if (item.type === 'session') {
      const update = sessionUpdate(item.payload, now);
      if (update) updates.push(update);
      else ignored++;
    } else {
      const found = sessionAggregates(item.payload, now);
      if (found.length === 0) ignored++;
      aggregates.push(...found);
    }
  }
  if (updates.length + aggregates.length > 0) {
    await db.transaction(
      async (tx) => {
        for (const update of updates) await applySessionUpdate(tx, scope, update);
        for (const aggregate of aggregates) await applySessionAggregate(tx, scope, aggregate);
      },
      { durability: 'relaxed' },
    );
  }
  return { counted: items.length - ignored, ignored };
}
