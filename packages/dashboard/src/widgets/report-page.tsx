/**
 * The frame of one report's page (a bug report, an error record, an error group): the way back to
 * its list, then the report once it is read (or why it is not).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { QueryView } from './states.tsx';

export function ReportPage<T>({
  back,
  backLabel,
  query,
  what,
  children,
}: {
  /** The list's path. */
  back: string;
  /** The link to it, after the arrow: "All bug reports". */
  backLabel: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  /** What is loading, for the loading state: "the bug report". */
  what: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <div className="reports stack">
      <p>
        <Link to={back}>← {backLabel}</Link>
      </p>
      <QueryView query={query} what={what}>
        {children}
      </QueryView>
    </div>
  );
}
