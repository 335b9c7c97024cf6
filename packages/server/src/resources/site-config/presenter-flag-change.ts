import type { FlagActor, FlagChangeRow } from './store-flag-changes.ts';

type State = Record<string, unknown> | null;

const parse = (json: string | null): State => (json === null ? null : (JSON.parse(json) as Record<string, unknown>));

/** A recorded flag change as the management API answers it, with the error rate around it. */
export function presentFlagChange(
  row: FlagChangeRow,
  errorRate: { environment: 'live' | 'test'; before: number; after: number; afterHours: number },
) {
  const oldValue = parse(row.old_value);
  const newValue = parse(row.new_value);
  const fields = Object.keys({ ...oldValue, ...newValue });
  return {
    id: row.id,
    flagKey: row.flag_key,
    action: row.action,
    environment: row.environment as 'live' | 'test' | null,
    changedFields: fields
      .filter((name) => JSON.stringify(oldValue?.[name]) !== JSON.stringify(newValue?.[name]))
      .sort(),
    oldValue,
    newValue,
    actor: {
      type: row.actor_type as FlagActor['type'],
      id: row.actor_id,
      name: row.actor_name,
    },
    createdAt: row.created_at,
    errorRate,
  };
}
