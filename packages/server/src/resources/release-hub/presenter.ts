/** Rows to API shapes, one place for every surface of the release hub. */
import type { LinkedGroup } from './read-model.ts';

export const presentGroup = (g: LinkedGroup) => ({
  id: g.id,
  title: g.title,
  status: g.status,
  level: g.level,
  sdkEnvironment: g.sdk_environment,
  events: Number(g.events),
  users: Number(g.users),
  firstSeenAt: g.first_seen_at,
  lastSeenAt: g.last_seen_at,
  firstRelease: g.first_release,
  lastRelease: g.last_release,
  resolvedInRelease: g.resolved_in_release,
  regressedInRelease: g.regressed_in_release,
});
