/**
 * Suspect flags of an error group (issue 33): the feature flags changed in the hour before the
 * group began (its first event, or for a regressed group the event that regressed it), newest
 * first. Read from site-config's flag history at read time, so a change recorded through any
 * surface counts.
 */
import type { Queryable } from '../../db/database.ts';
import { flagChangesBetween } from '../site-config/index.ts';
import type { GroupRow } from './store-group-reads.ts';

const HOUR_MS = 60 * 60 * 1000;

export interface SuspectFlag {
  flagKey: string;
  action: 'created' | 'changed' | 'deleted';
  environment: 'live' | 'test' | null;
  changedAt: string;
  enabled: boolean | null;
  actorName: string | null;
}

export async function suspectFlagsOf(db: Queryable, group: GroupRow): Promise<{ since: string; flags: SuspectFlag[] }> {
  const began = group.status === 'regressed' && group.regressed_at ? group.regressed_at : group.first_seen_at;
  const from = new Date(Date.parse(began) - HOUR_MS).toISOString();
  const changes = await flagChangesBetween(db, group.project_id, from, began);
  const enabledIn = (json: string | null) => {
    if (json === null) return null;
    const state = JSON.parse(json) as { enabled?: unknown };
    return typeof state.enabled === 'boolean' ? state.enabled : null;
  };
  return {
    since: from,
    flags: changes
      // A change limited to the other key environment cannot have caused it.
      .filter((change) => change.environment === null || change.environment === group.environment)
      .map((change) => ({
        flagKey: change.flag_key,
        action: change.action,
        environment: change.environment as 'live' | 'test' | null,
        changedAt: change.created_at,
        enabled: enabledIn(change.new_value),
        actorName: change.actor_name,
      })),
  };
}
