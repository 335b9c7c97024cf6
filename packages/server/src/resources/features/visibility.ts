import type { CreateFeatureBody } from './schemas.ts';

/**
 * Whether a new item starts internal. An explicit value always wins. Otherwise only the
 * platform's own project hides new items by default (its board is curated), except those
 * submitted through the widget or an SDK, which users expect to see on the board.
 */
export function initialInternal(
  explicit: boolean | undefined,
  channel: CreateFeatureBody['channel'],
  projectId: string,
  platformProjectId: string,
): boolean {
  if (explicit !== undefined) return explicit;
  if (channel === 'widget' || channel === 'sdk') return false;
  return projectId === platformProjectId;
}

/** `bug` and `error` submissions are bugs that start as `new`; features start `open`. */
export function storedKind(type: CreateFeatureBody['type']): { type: 'feature' | 'bug'; status: 'new' | 'open' } {
  return type === 'bug' || type === 'error' ? { type: 'bug', status: 'new' } : { type: 'feature', status: 'open' };
}
