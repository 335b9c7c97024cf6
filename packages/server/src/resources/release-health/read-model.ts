/**
 * The one read that joins the releases table (owned by resources/releases) with release health's
 * own running totals: everything the releases list and a release's page need to order the
 * releases and give each its figures, in one statement (one round trip on PostgreSQL).
 */
import type { Queryable } from '../../db/database.ts';
import type { TotalsDelta } from './store-totals.ts';

/**
 * One row of the ledger. `session`: a release's running totals for one SDK environment;
 * `check`: its version-check totals; `registered`: a registered release (`first_hour` is when it
 * was created, counts are 0).
 */
export interface LedgerRow extends TotalsDelta {
  kind: 'session' | 'check' | 'registered';
  release: string;
  sdkEnvironment: string | null;
  firstHour: string;
  lastHour: string;
  checks: number;
}

/**
 * Every release of a project and key environment with its totals: one row per release and SDK
 * environment of release_health_totals, one per release of release_check_totals, one per
 * registered release. Bounded by the number of releases, not by sessions or hours.
 */
export async function releaseLedger(db: Queryable, projectId: string, environment: string): Promise<LedgerRow[]> {
  const rows = await db.all<{
    kind: LedgerRow['kind'];
    release: string;
    sdk_environment: string | null;
    first_hour: string;
    last_hour: string;
    healthy: number;
    errored: number;
    unhandled: number;
    abnormal: number;
    crashed: number;
    users: number;
    crashed_users: number;
    checks: number;
  }>(
    `SELECT 'session' AS kind, release, sdk_environment, first_hour, last_hour, healthy, errored, unhandled, abnormal,
       crashed, users, crashed_users, 0 AS checks
     FROM release_health_totals WHERE project_id = ? AND environment = ?
     UNION ALL
     SELECT 'check' AS kind, release, NULL, first_hour, last_hour, 0, 0, 0, 0, 0, 0, 0, checks
     FROM release_check_totals WHERE project_id = ?
     UNION ALL
     SELECT 'registered' AS kind, version, NULL, created_at, created_at, 0, 0, 0, 0, 0, 0, 0, 0
     FROM releases WHERE project_id = ?`,
    [projectId, environment, projectId, projectId],
  );
  return rows.map((row) => ({
    kind: row.kind,
    release: row.release,
    sdkEnvironment: row.sdk_environment,
    firstHour: row.first_hour,
    lastHour: row.last_hour,
    healthy: Number(row.healthy),
    errored: Number(row.errored),
    unhandled: Number(row.unhandled),
    abnormal: Number(row.abnormal),
    crashed: Number(row.crashed),
    users: Number(row.users),
    crashedUsers: Number(row.crashed_users),
    checks: Number(row.checks),
  }));
}
