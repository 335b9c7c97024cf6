/**
 * A flag's change history (issue 33), folded under its row: who changed it, when, for which key
 * environment, what changed, and the project's error events per hour before and after each
 * change. Loaded when opened; older changes page in by cursor.
 */
import { useState } from 'react';
import { api } from '../api/client.ts';
import { type FlagChange, flagHistoryKey, formatWhen } from '../api/site-config.ts';
import { Button, ErrorNote } from '../ui.tsx';
import { DataTable } from '../widgets/data-table.tsx';
import { useCursorList } from '../api/use-cursor-list.ts';

const ACTORS: Record<FlagChange['actor']['type'], string> = {
  member: 'dashboard',
  token: 'access token',
  'api-key': 'MCP, API key',
  oauth: 'MCP',
  system: 'the server',
};

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'boolean' ? (value ? 'on' : 'off') : JSON.stringify(value);

/** What a change did, in a few words. */
export function describeChange(change: FlagChange): string {
  if (change.action === 'created') return `Created, ${change.newValue?.['enabled'] ? 'on' : 'off'}`;
  if (change.action === 'deleted') return 'Deleted';
  return change.changedFields
    .map((field) =>
      field === 'enabled' || field === 'value'
        ? `${field === 'enabled' ? 'Turned' : 'Value'} ${show(change.oldValue?.[field])} → ${show(change.newValue?.[field])}`
        : `${field} changed`,
    )
    .join('; ');
}

export function FlagHistory({ projectId, flagKey }: { projectId: string; flagKey: string }) {
  const [open, setOpen] = useState(false);
  const { list: history, rows: changes } = useCursorList(
    flagHistoryKey(projectId, flagKey),
    25,
    (paging) =>
      api.GET('/projects/{projectId}/site-config/flags/{flagKey}/history', {
        params: { path: { projectId, flagKey }, query: paging },
      }),
    (page) => page.changes,
    { enabled: open },
  );
  return (
    <details className="flag-history" onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>History of {flagKey}</summary>
      {history.error ? <ErrorNote error={history.error} /> : null}
      {history.isPending && open ? <p className="muted">Loading the history…</p> : null}
      {history.isSuccess && changes.length === 0 ? (
        <p className="muted">No changes recorded (the flag was made before its history was kept).</p>
      ) : null}
      {changes.length > 0 ? (
        <DataTable
          className="flag-history-table"
          label={`Changes of ${flagKey}, newest first`}
          wrapClassName={null}
          columns={['When', 'Who', 'Keys', 'Change', 'Errors per hour, before → after']}
        >
          {changes.map((change) => (
            <tr key={change.id}>
              <td>{formatWhen(change.createdAt)}</td>
              <td>
                {change.actor.name ?? change.actor.id ?? 'unknown'}{' '}
                <span className="muted">({ACTORS[change.actor.type]})</span>
              </td>
              <td>{change.environment ?? 'live and test'}</td>
              <td>{describeChange(change)}</td>
              <td>
                <span className={change.errorRate.after > change.errorRate.before ? 'rate-up' : undefined}>
                  {change.errorRate.before} → {change.errorRate.after}
                </span>{' '}
                <span className="muted">({change.errorRate.environment})</span>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {history.hasNextPage ? (
        <Button variant="secondary" busy={history.isFetchingNextPage} onPress={() => history.fetchNextPage()}>
          Older changes
        </Button>
      ) : null}
    </details>
  );
}
