/**
 * The status table: which Signpost status an idea gets for each status name of the source.
 * Defaults cover the names Canny, UserVoice, Featurebase and Fider use; the caller's own entries
 * (`under review=planned`) win; `skip` leaves ideas of that status out (Fider's deleted posts).
 * A name nobody mapped becomes `open`, and the report says so.
 */
import { FEATURE_STATUSES, type FeatureStatus } from '../features/index.ts';
import { BadRequestError } from '../../kernel/errors.ts';

export type StatusTarget = FeatureStatus | 'skip';

const DEFAULTS: Record<string, StatusTarget> = {
  new: 'new',
  open: 'open',
  active: 'open',
  'under review': 'in-review',
  'in review': 'in-review',
  reviewing: 'in-review',
  'needs review': 'in-review',
  planned: 'planned',
  'in progress': 'in-progress',
  started: 'in-progress',
  'working on it': 'in-progress',
  accepted: 'accepted',
  complete: 'done',
  completed: 'done',
  shipped: 'done',
  done: 'done',
  released: 'done',
  closed: 'declined',
  declined: 'declined',
  rejected: 'declined',
  "won't do": 'declined',
  'will not implement': 'declined',
  duplicate: 'declined',
  deleted: 'skip',
};

/** A status name folded for lookup: case, dashes and underscores do not matter. */
export function foldStatus(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ');
}

export interface StatusDecision {
  status: StatusTarget;
  by: 'default' | 'map' | 'fallback';
}

export class StatusTable {
  private readonly own = new Map<string, StatusTarget>();

  /** Entries `source name=signpost status` (or `=skip`); a 400 naming a bad one. */
  constructor(entries: readonly string[] = []) {
    for (const entry of entries) {
      const at = entry.lastIndexOf('=');
      const from = at > 0 ? foldStatus(entry.slice(0, at)) : '';
      const to = at > 0 ? entry.slice(at + 1).trim() : '';
      if (!from || !(to === 'skip' || (FEATURE_STATUSES as readonly string[]).includes(to))) {
        throw new BadRequestError(
          `Status mapping "${entry.slice(0, 80)}": expected <source status>=<${FEATURE_STATUSES.join('|')}|skip>`,
          [{ field: 'map', message: 'expected <source status>=<status>' }],
        );
      }
      this.own.set(from, to as StatusTarget);
    }
  }

  decide(name: string): StatusDecision {
    const folded = foldStatus(name);
    const own = this.own.get(folded);
    if (own) return { status: own, by: 'map' };
    const known = DEFAULTS[folded] ?? (FEATURE_STATUSES as readonly string[]).find((s) => foldStatus(s) === folded);
    if (known) return { status: known as StatusTarget, by: 'default' };
    return { status: 'open', by: 'fallback' };
  }
}
