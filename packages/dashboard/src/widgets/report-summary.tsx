/**
 * The top of an error group's or a bug report's page: its title and status, its message and the
 * facts both kinds have (count, first and last seen, severity, environment), followed by the
 * kind's own facts.
 */
import type { ReactNode } from 'react';
import { severityName, statusName, when } from '../api/reports.ts';
import type { ReportRow } from './report-list.tsx';

export function ReportSummary({
  record,
  occurrencesName,
  seen,
  children,
}: {
  record: ReportRow;
  /** The name of the count ("Occurrences", "Reports"). */
  occurrencesName: string;
  seen: { occurrences: number; firstSeenAt: string };
  /** The kind's own facts. */
  children: ReactNode;
}) {
  return (
    <>
      <div className="report-header">
        <h1>{record.title}</h1>
        <span className={`report-status report-status-${record.status}`}>{statusName(record.status)}</span>
      </div>
      <p className="report-message">{record.message}</p>
      <dl className="report-facts card">
        <Fact name={occurrencesName} value={String(seen.occurrences)} />
        <Fact name="First seen" value={when(seen.firstSeenAt)} />
        <Fact name="Last seen" value={when(record.lastSeenAt)} />
        <Fact name="Severity" value={severityName(record.severity)} />
        <Fact name="Environment" value={record.environment === 'live' ? 'Live' : 'Test'} />
        {children}
      </dl>
    </>
  );
}

/** One fact of a report; a dash when it was not sent. */
export function Fact({ name, value }: { name: string; value: string | null | undefined }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{value ?? <span className="muted">–</span>}</dd>
    </div>
  );
}
