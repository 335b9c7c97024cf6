import { isTrue } from '../../db/database.ts';
import { presentEntry } from './public-routes.ts';
import type { ManagedChangelogRow } from './store.ts';

/** The public shape (live feature fields for linked entries), plus what only the team sees. */
export function presentManagedEntry(row: ManagedChangelogRow) {
  const { featureId, ...entry } = presentEntry(row);
  return { ...entry, featureId: featureId ?? null, featureInternal: isTrue(row.f_internal) };
}
