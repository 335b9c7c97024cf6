/**
 * Feature flags next to errors (issue 33): an error group's suspect flags (changed in the hour
 * before it began, linking to the flags' page) and the flags an event carried (evaluated before
 * the error, newest last).
 */
import { Link } from 'react-router';
import { type ErrorEventDetail, type ErrorGroupDetail, when } from '../api/reports.ts';
import { DataTable } from '../widgets/data-table.tsx';

export function SuspectFlags({ group }: { group: ErrorGroupDetail }) {
  const began = group.status === 'regressed' ? 'regressed' : 'first seen';
  return (
    <section className="card stack" aria-labelledby="suspect-flags-title">
      <h2 id="suspect-flags-title">Suspect flags</h2>
      {group.suspectFlags.length === 0 ? (
        <p className="muted">No feature flag changed in the hour before this group was {began}.</p>
      ) : (
        <>
          <p className="muted">Changed in the hour before this group was {began}, newest first:</p>
          <ul className="suspect-flags">
            {group.suspectFlags.map((flag) => (
              <li key={`${flag.flagKey}-${flag.changedAt}-${flag.action}`}>
                <Link className="code" to={`/projects/${group.projectId}/site-config`}>
                  {flag.flagKey}
                </Link>{' '}
                {flag.action === 'deleted'
                  ? 'deleted'
                  : `${flag.action}${flag.enabled === null ? '' : flag.enabled ? ', on' : ', off'}`}
                {flag.environment ? ` (${flag.environment} keys)` : ''} at {when(flag.changedAt)}
                {flag.actorName ? ` by ${flag.actorName}` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function EventFlags({ flags }: { flags: ErrorEventDetail['flags'] }) {
  return (
    <>
      <h3>Feature flags</h3>
      {flags.length === 0 ? (
        <p className="muted">The SDK sent no flag evaluations with this event.</p>
      ) : (
        <DataTable
          className="event-flags"
          label="Feature flags evaluated before the error, newest last"
          wrapClassName={null}
          columns={['Flag', 'Result']}
        >
          {flags.map((flag) => (
            <tr key={flag.flag}>
              <td className="code">{flag.flag}</td>
              <td>{JSON.stringify(flag.result)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
