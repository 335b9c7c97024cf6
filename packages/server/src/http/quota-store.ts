import type { Database } from '../db/database.ts';
import { isForeignKeyViolation } from '../db/failures.ts';

/** Rows per upsert statement; more projects in one flush take several, in one transaction. */
const ROWS_PER_STATEMENT = 200;

/** A count to add to one project's row for one period. */
export interface UsageIncrement {
  projectId: string;
  period: string;
  count: number;
}

/** The shared count of a project for a period (0 before its first flush). */
export async function readUsage(db: Database, projectId: string, period: string): Promise<number> {
  const row = await db.get<{ used: number | string }>(
    'SELECT used FROM quota_usage WHERE project_id = ? AND period = ?',
    [projectId, period],
  );
  return Number(row?.used ?? 0);
}

/**
 * Adds every increment and gives each row's new total, keyed `projectId \0 period`: `null` for a
 * project deleted meanwhile (its count is dropped), no entry for one not written (count it again
 * later). Normally one multi-row upsert (one per 200 rows, in one transaction); if a deleted
 * project fails it on the foreign key, row by row, so the others are still written.
 */
export async function addUsage(
  db: Database,
  increments: readonly UsageIncrement[],
): Promise<Map<string, number | null>> {
  // One lock order in every process, so two flushes on PostgreSQL cannot deadlock.
  const sorted = [...increments].sort((a, b) =>
    a.projectId === b.projectId ? (a.period < b.period ? -1 : 1) : a.projectId < b.projectId ? -1 : 1,
  );
  try {
    return await upsert(db, sorted);
  } catch (error) {
    if (!isForeignKeyViolation(error)) throw error;
  }
  const totals = new Map<string, number | null>();
  for (const increment of sorted) {
    try {
      for (const [key, total] of await upsert(db, [increment])) totals.set(key, total);
    } catch (error) {
      if (isForeignKeyViolation(error)) totals.set(usageKey(increment.projectId, increment.period), null);
      else break; // the rest are not written: the caller counts them again next time
    }
  }
  return totals;
}

export function usageKey(projectId: string, period: string): string {
  return `${projectId}\u0000${period}`;
}

async function upsert(db: Database, increments: readonly UsageIncrement[]): Promise<Map<string, number | null>> {
  const statement = (rows: readonly UsageIncrement[]) => ({
    sql: `INSERT INTO quota_usage (project_id, period, used) VALUES ${rows.map(() => '(?, ?, ?)').join(', ')}
     ON CONFLICT (project_id, period) DO UPDATE SET used = quota_usage.used + excluded.used
     RETURNING project_id, period, used`,
    params: rows.flatMap((row) => [row.projectId, row.period, row.count]),
  });
  const chunks: UsageIncrement[][] = [];
  for (let i = 0; i < increments.length; i += ROWS_PER_STATEMENT) {
    chunks.push(increments.slice(i, i + ROWS_PER_STATEMENT));
  }
  type Total = { project_id: string; period: string; used: number | string };
  const single = chunks.length === 1 ? statement(chunks[0]!) : undefined;
  const rows: Total[] = single
    ? await db.all<Total>(single.sql, single.params)
    : await db.transaction(async (tx) => {
        const all: Total[] = [];
        for (const chunk of chunks) {
          const { sql, params } = statement(chunk);
          all.push(...(await tx.all<Total>(sql, params)));
        }
        return all;
      });
  return new Map(rows.map((row) => [usageKey(row.project_id, row.period), Number(row.used)]));
}
