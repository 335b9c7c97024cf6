/**
 * Release health drops (issue 33): a release whose crash-free sessions fall below the project's
 * threshold (default 99 %), or more than N points (default 5) below the previous release's, is
 * told once per drop as `release.health_dropped` (webhooks subscribe); a release that recovers is
 * told again only when it drops again. Judged over the last 14 days (the release list's default
 * range), all SDK environments together, and only with at least `minSessions` sessions (the
 * previous release too, for the comparison). The release-health worker runs a pass every
 * `RELEASE_HEALTH_CHECK_INTERVAL_MS` over the releases whose sessions were counted in the last
 * two hours; the settings are the management API's and the dashboard's.
 */
import type { Database } from '../../db/database.ts';
import { emitDomainEvent } from '../../db/domain-events.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import { projectHealth } from './health.ts';
import {
  DEFAULT_DROP_SETTINGS,
  type DropReason,
  type DropSettings,
  dropSettingsOf,
  markDrop,
  releasesWithSessionsSince,
  saveDropSettings,
} from './store-drops.ts';

const DAY_MS = 24 * 3600_000;
const RECENT_MS = 2 * 3600_000;
const RANGE_DAYS = 14;

export interface DropSettingsView {
  /** Percent, 0–100. */
  crashFreeThreshold: number;
  /** Percentage points. */
  maxDropPoints: number;
  minSessions: number;
}

const view = (s: DropSettings): DropSettingsView => ({
  crashFreeThreshold: s.crashFreeThresholdBp / 100,
  maxDropPoints: s.maxDropBp / 100,
  minSessions: s.minSessions,
});

export async function getDropSettings(db: Database, projectId: string): Promise<DropSettingsView> {
  return view(await dropSettingsOf(db, projectId));
}

/** Changes some of the settings; the others keep their value. */
export async function updateDropSettings(
  db: Database,
  projectId: string,
  input: Partial<DropSettingsView>,
): Promise<DropSettingsView> {
  const bp = (value: number, field: string) => {
    const n = Math.round(value * 100);
    if (Math.abs(n - value * 100) > 1e-6) {
      throw new BadRequestError(`Invalid field ${field}: at most two decimals`, [
        { field, message: 'at most two decimals' },
      ]);
    }
    return n;
  };
  return db.transaction(async (tx) => {
    const current = await dropSettingsOf(tx, projectId);
    const next: DropSettings = {
      crashFreeThresholdBp:
        input.crashFreeThreshold === undefined
          ? current.crashFreeThresholdBp
          : bp(input.crashFreeThreshold, 'crashFreeThreshold'),
      maxDropBp: input.maxDropPoints === undefined ? current.maxDropBp : bp(input.maxDropPoints, 'maxDropPoints'),
      minSessions: input.minSessions ?? current.minSessions,
    };
    await saveDropSettings(tx, projectId, next);
    return view(next);
  });
}

export { DEFAULT_DROP_SETTINGS };

/** One pass: judges the releases with recent sessions; the number of drops told. */
export async function checkHealthDrops(db: Database, now = new Date()): Promise<number> {
  const sinceHour = `${new Date(now.getTime() - RECENT_MS).toISOString().slice(0, 13)}:00:00.000Z`;
  const recent = await releasesWithSessionsSince(db, sinceHour);
  const scopes = new Map<string, { projectId: string; environment: KeyEnvironment; releases: Set<string> }>();
  for (const row of recent) {
    const key = `${row.project_id} ${row.environment}`;
    const environment = row.environment as KeyEnvironment;
    const scope = scopes.get(key) ?? { projectId: row.project_id, environment, releases: new Set() };
    scope.releases.add(row.release);
    scopes.set(key, scope);
  }
  const until = new Date(Math.floor(now.getTime() / 3600_000) * 3600_000 + 3600_000);
  const range = { sdkEnvironment: undefined, since: new Date(until.getTime() - RANGE_DAYS * DAY_MS), until };
  let told = 0;
  for (const { projectId, environment, releases } of scopes.values()) {
    const settings = await dropSettingsOf(db, projectId);
    const list = await projectHealth(db, { projectId, environment }, range);
    const byVersion = new Map(list.map((summary) => [summary.version, summary]));
    for (const summary of list) {
      if (!releases.has(summary.version)) continue;
      const rate = summary.crashFreeSessions;
      const judged = summary.sessions.total >= settings.minSessions && rate !== null;
      const previous = summary.comparison.previous ? byVersion.get(summary.comparison.previous) : undefined;
      const comparable =
        judged &&
        previous !== undefined &&
        previous.sessions.total >= settings.minSessions &&
        previous.crashFreeSessions !== null;
      const reasons: [DropReason, boolean][] = [
        ['threshold', judged && rate * 10_000 < settings.crashFreeThresholdBp],
        ['previous', comparable && (previous.crashFreeSessions! - rate) * 10_000 > settings.maxDropBp],
      ];
      for (const [reason, dropped] of reasons) {
        const key = { projectId, environment, release: summary.version, reason };
        if (!dropped) {
          await markDrop(db, key, false);
          continue;
        }
        const first = await db.transaction(async (tx) => {
          if (!(await markDrop(tx, key, true))) return false;
          await emitDomainEvent(tx, 'release.health-dropped', {
            projectId,
            environment,
            version: summary.version,
            reason,
            crashFreeSessions: rate!,
            crashFreeUsers: summary.crashFreeUsers,
            sessions: summary.sessions.total,
            threshold: settings.crashFreeThresholdBp / 10_000,
            maxDropPoints: settings.maxDropBp / 100,
            previous:
              previous && previous.crashFreeSessions !== null
                ? { version: previous.version, crashFreeSessions: previous.crashFreeSessions }
                : null,
          });
          return true;
        });
        if (first) told++;
      }
    }
  }
  return told;
}
