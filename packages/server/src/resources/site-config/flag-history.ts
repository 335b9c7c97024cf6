/**
 * A flag's change history (issue 33): its changes, newest first, by cursor, each with the error
 * rate of its key environment before and after. The management API, the CLI (through it) and the
 * MCP site_config tool answer this page.
 */
import type { Database } from '../../db/database.ts';
import { errorRatesAround } from '../reports/index.ts';
import { presentFlagChange } from './presenter-flag-change.ts';
import { getFlag } from './store.ts';
import { listFlagChanges } from './store-flag-changes.ts';

/** undefined for a flag that never existed (a deleted flag keeps its history). */
export async function flagHistory(
  db: Database,
  projectId: string,
  flagKey: string,
  cursor: string | undefined,
  limit: number,
) {
  const page = await listFlagChanges(db, projectId, flagKey, cursor, limit);
  // A flag with no change recorded (made before history was kept) answers an empty page.
  if (page.rows.length === 0 && cursor === undefined && !(await getFlag(db, projectId, flagKey))) return undefined;
  const now = new Date();
  // One read per key environment for the whole page.
  const environmentOf = (environment: string | null) => (environment === 'test' ? 'test' : 'live');
  const rates = new Map<string, Awaited<ReturnType<typeof errorRatesAround>>[number]>();
  for (const environment of ['live', 'test'] as const) {
    const rows = page.rows.filter((row) => environmentOf(row.environment) === environment);
    const found = await errorRatesAround(
      db,
      projectId,
      environment,
      rows.map((row) => row.created_at),
      now,
    );
    for (const [i, row] of rows.entries()) rates.set(row.id, found[i]!);
  }
  return {
    changes: page.rows.map((row) =>
      presentFlagChange(row, { environment: environmentOf(row.environment), ...rates.get(row.id)! }),
    ),
    nextCursor: page.nextCursor,
  };
}
