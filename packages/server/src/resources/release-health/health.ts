/**
 * Release health as the management API shows it: per release, adoption (version checks,
 * sessions, users), sessions by status, crash-free sessions and users, and the change from the
 * previous release; for one release, the same over time. Crash-free sessions = 1 − crashed /
 * sessions; crash-free users = 1 − users with a crashed session / users (users are sessions'
 * `did`s, each counted once per release and SDK environment: in the hour of their latest session
 * and latest crashed session, so the sum over a range that ends now, as every range here does, is
 * exact and costs one row per hour, not one per user). `abnormal` and `unhandled` count apart and
 * `errored` is not a crash. A rate is null when there is nothing to divide by.
 *
 * The list reads each release's running totals (one row per release) when the range holds all of
 * the release's hours, and its hours in the range only when the release is older than the range.
 */
import semver from 'semver';
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import { releaseLedger } from './read-model.ts';
import { checkHours, type HealthFilter, sessionHours, userHours } from './store-hour-reads.ts';
import type { ReleaseTotals } from './store-totals.ts';
import { flushVersionChecks } from './tally.ts';

export interface HealthRange {
  sdkEnvironment: string | undefined;
  since: Date;
  until: Date;
}

export interface HealthSummary {
  version: string;
  registered: boolean;
  firstSeen: string | null;
  sessions: { total: number; healthy: number; errored: number; unhandled: number; abnormal: number; crashed: number };
  users: { total: number; crashed: number };
  versionChecks: number;
  crashFreeSessions: number | null;
  crashFreeUsers: number | null;
}

const rate = (bad: number, total: number): number | null => (total === 0 ? null : 1 - bad / total);

/**
 * Releases in display order, newest first: SemVer versions by precedence, then the others by
 * first appearance (decisions.md, Wave 3).
 */
function order(versions: { version: string; first: string }[]): string[] {
  // Each version parsed once: comparing strings parses both on every comparison, and at 100
  // releases that was most of the release page's own time.
  const parsed = versions.map((v) => ({ ...v, sem: semver.parse(v.version) }));
  const valid = parsed
    .filter((v): v is typeof v & { sem: semver.SemVer } => v.sem !== null)
    .sort((a, b) => b.sem.compare(a.sem));
  const other = parsed.filter((v) => v.sem === null).sort((a, b) => (a.first < b.first ? 1 : -1));
  return [...valid, ...other].map((v) => v.version);
}

function filterOf(scope: Scope, range: HealthRange, release?: string): HealthFilter {
  return {
    projectId: scope.projectId,
    environment: scope.environment,
    sdkEnvironment: range.sdkEnvironment,
    since: range.since.toISOString(),
    until: range.until.toISOString(),
    release,
  };
}

/** Above this many releases read by their hours, one range read of all of them beats a list of parameters. */
const LISTED_RELEASES = 200;

interface Bounds {
  firstHour: string;
  lastHour: string;
}

/** Widens `into`'s hour bounds by `row`'s (a release's totals of several SDK environments). */
function widen(into: Bounds, row: Bounds): void {
  if (row.firstHour < into.firstHour) into.firstHour = row.firstHour;
  if (row.lastHour > into.lastHour) into.lastHour = row.lastHour;
}

/**
 * Each release's figures over the range from its running totals (releaseLedger in read-model.ts:
 * the releases, their session totals per SDK environment and their version-check totals in one
 * statement) when the range holds every hour the release has rows for, which a release first
 * seen inside the range does: one row per release, however many sessions and hours it has. Only
 * the releases older than the range are summed from their hours in it.
 */
async function summaries(db: Database, scope: Scope, range: HealthRange): Promise<HealthSummary[]> {
  // This process's version checks not yet written are written first, so a read sees them.
  await flushVersionChecks(db);
  const filter = filterOf(scope, range);
  const ledger = await releaseLedger(db, scope.projectId, scope.environment);
  // A release is seen from the first hour of any of its totals (every SDK environment); its
  // figures come from the asked SDK environment's rows only, summed per release.
  const first = new Map<string, string>();
  const totalsOf = new Map<string, ReleaseTotals>();
  const checksOf = new Map<string, Bounds & { checks: number }>();
  const registered = new Map<string, string>();
  for (const row of ledger) {
    if (row.kind === 'registered') {
      registered.set(row.release, row.firstHour);
      continue;
    }
    const seen = first.get(row.release);
    if (seen === undefined || row.firstHour < seen) first.set(row.release, row.firstHour);
    if (row.kind === 'check') {
      checksOf.set(row.release, { firstHour: row.firstHour, lastHour: row.lastHour, checks: row.checks });
      continue;
    }
    if (filter.sdkEnvironment !== undefined && row.sdkEnvironment !== filter.sdkEnvironment) continue;
    const sum = totalsOf.get(row.release);
    if (!sum) {
      const { kind: _, sdkEnvironment: __, checks: ___, ...totals } = row;
      totalsOf.set(row.release, totals);
      continue;
    }
    widen(sum, row);
    sum.healthy += row.healthy;
    sum.errored += row.errored;
    sum.unhandled += row.unhandled;
    sum.abnormal += row.abnormal;
    sum.crashed += row.crashed;
    sum.users += row.users;
    sum.crashedUsers += row.crashedUsers;
  }
  const totals = [...totalsOf.values()];
  const checkTotalRows = [...checksOf].map(([release, row]) => ({ release, ...row }));
  const inRange = (first: string, last: string) => first >= filter.since && last < filter.until;
  const olderSessions = totals.filter((t) => !inRange(t.firstHour, t.lastHour)).map((t) => t.release);
  const olderChecks = checkTotalRows.filter((t) => !inRange(t.firstHour, t.lastHour)).map((t) => t.release);
  const only = (releases: string[]) => (releases.length <= LISTED_RELEASES ? { releases } : {});
  const [hours, checks] = await Promise.all([
    olderSessions.length === 0 ? [] : sessionHours(db, { ...filter, ...only(olderSessions) }, true),
    olderChecks.length === 0 ? [] : checkHours(db, { ...filter, ...only(olderChecks) }),
  ]);
  const all = new Map<string, string>(first);
  for (const [version, createdAt] of registered) if (!all.has(version)) all.set(version, createdAt);
  const byVersion = new Map<string, HealthSummary>();
  for (const version of order([...all].map(([v, f]) => ({ version: v, first: f })))) {
    byVersion.set(version, {
      version,
      registered: registered.has(version),
      firstSeen: first.get(version) ?? null,
      sessions: { total: 0, healthy: 0, errored: 0, unhandled: 0, abnormal: 0, crashed: 0 },
      users: { total: 0, crashed: 0 },
      versionChecks: 0,
      crashFreeSessions: null,
      crashFreeUsers: null,
    });
  }
  const add = (
    release: string,
    row: { healthy: number; errored: number; unhandled: number; abnormal: number; crashed: number },
    users: number,
    crashedUsers: number,
  ) => {
    const summary = byVersion.get(release);
    if (!summary) return;
    const s = summary.sessions;
    summary.users.total += users;
    summary.users.crashed += crashedUsers;
    s.healthy += row.healthy;
    s.errored += row.errored;
    s.unhandled += row.unhandled;
    s.abnormal += row.abnormal;
    s.crashed += row.crashed;
    s.total += row.healthy + row.errored + row.unhandled + row.abnormal + row.crashed;
  };
  for (const row of totals) {
    if (inRange(row.firstHour, row.lastHour)) add(row.release, row, row.users, row.crashedUsers);
  }
  // Each user counts once, in the hour of their latest (crashed) session: the range's sum is exact.
  const older = new Set(olderSessions);
  for (const row of hours) if (older.has(row.release)) add(row.release, row, row.lastUsers, row.lastCrashedUsers);
  for (const row of checkTotalRows) {
    const summary = byVersion.get(row.release);
    if (summary && inRange(row.firstHour, row.lastHour)) summary.versionChecks += row.checks;
  }
  const olderChecked = new Set(olderChecks);
  for (const row of checks) {
    const summary = byVersion.get(row.release);
    if (summary && olderChecked.has(row.release)) summary.versionChecks += row.checks;
  }
  for (const summary of byVersion.values()) {
    summary.crashFreeSessions = rate(summary.sessions.crashed, summary.sessions.total);
    summary.crashFreeUsers = rate(summary.users.crashed, summary.users.total);
  }
  return [...byVersion.values()];
}

export interface Comparison {
  previous: string | null;
  crashFreeSessionsChange: number | null;
  crashFreeUsersChange: number | null;
}

function compare(list: HealthSummary[], index: number): Comparison {
  const current = list[index]!;
  const previous = list[index + 1];
  const change = (a: number | null, b: number | null | undefined) =>
    a === null || b === null || b === undefined ? null : a - b;
  return {
    previous: previous?.version ?? null,
    crashFreeSessionsChange: change(current.crashFreeSessions, previous?.crashFreeSessions),
    crashFreeUsersChange: change(current.crashFreeUsers, previous?.crashFreeUsers),
  };
}

/** Every release of the project (registered or seen), newest first, each with its comparison. */
export async function projectHealth(db: Database, scope: Scope, range: HealthRange) {
  const list = await summaries(db, scope, range);
  return list.map((summary, i) => ({ ...summary, comparison: compare(list, i) }));
}

export interface SeriesPoint {
  start: string;
  versionChecks: number;
  sessions: number;
  crashed: number;
  errored: number;
  unhandled: number;
  abnormal: number;
  users: number;
  crashedUsers: number;
  crashFreeSessions: number | null;
}

/**
 * One release's health with its previous release's, and its series in buckets of an hour or a
 * day, every bucket of the range (empty ones as zeros). A day's users add up its hours' distinct users (a user active in two hours counts twice
 * there); the summary's users are exact over the whole range.
 */
export async function releaseHealth(
  db: Database,
  scope: Scope,
  version: string,
  range: HealthRange,
  bucket: 'hour' | 'day',
) {
  const list = await summaries(db, scope, range);
  const index = list.findIndex((summary) => summary.version === version);
  if (index === -1) return undefined;
  const filter = filterOf(scope, range, version);
  const [hours, users, checks] = await Promise.all([
    sessionHours(db, filter),
    userHours(db, filter),
    checkHours(db, filter),
  ]);
  const points = new Map<string, SeriesPoint>();
  const point = (hour: string) => {
    const start = bucket === 'hour' ? hour : `${hour.slice(0, 10)}T00:00:00.000Z`;
    let found = points.get(start);
    if (!found) {
      found = {
        start,
        versionChecks: 0,
        sessions: 0,
        crashed: 0,
        errored: 0,
        unhandled: 0,
        abnormal: 0,
        users: 0,
        crashedUsers: 0,
        crashFreeSessions: null,
      };
      points.set(start, found);
    }
    return found;
  };
  for (const row of hours) {
    const p = point(row.hour);
    p.sessions += row.healthy + row.errored + row.unhandled + row.abnormal + row.crashed;
    p.crashed += row.crashed;
    p.errored += row.errored;
    p.unhandled += row.unhandled;
    p.abnormal += row.abnormal;
  }
  for (const row of users) {
    const p = point(row.hour);
    p.users += row.users;
    p.crashedUsers += row.crashedUsers;
  }
  for (const row of checks) point(row.hour).versionChecks += row.checks;
  // Every bucket of the range, empty ones too, so a chart's time axis is the range.
  const step = bucket === 'hour' ? 3600_000 : 24 * 3600_000;
  for (let at = Math.floor(range.since.getTime() / step) * step; at < range.until.getTime(); at += step) {
    point(new Date(at).toISOString());
  }
  const series = [...points.values()].sort((a, b) => (a.start < b.start ? -1 : 1));
  for (const p of series) p.crashFreeSessions = rate(p.crashed, p.sessions);
  return {
    release: { ...list[index]!, comparison: compare(list, index) },
    previous: list[index + 1] ?? null,
    bucket,
    series,
  };
}
