/**
 * The list screen of error groups and bug reports: counts per status, filters in the URL's search
 * parameters (text, extra text filters such as the release, status, severity, environment, time)
 * so a view can be shared and Back returns to it, the empty states, a table of reports
 * (occurrences, first and last seen, severity, environment, status and the kind's own columns)
 * and the pager. Each screen describes its kind of report with a `ReportKind`.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ENVIRONMENT_OPTIONS, SEVERITY_OPTIONS, severityName, statusName, TIME_OPTIONS } from '../api/reports.ts';
import { useProject } from '../project-layout.tsx';
import { TextFilterForm } from './text-filters.tsx';
import { useTitle } from '../use-title.ts';
import { useUrlView } from '../url-view.ts';
import { Pager } from './pager.tsx';
import { ListStates } from './states.tsx';
import '../screens/reports.css';
import { DataTable } from './data-table.tsx';
import { When } from './when.tsx';
import { ViewFilters } from './view-filters.tsx';

const PAGE_SIZE = 25;

type Option<T extends string = string> = { readonly value: T; readonly label: string };

/** What every listed report has. */
export type ReportRow = {
  id: string;
  title: string;
  message: string;
  lastSeenAt: string;
  severity: string;
  environment: 'live' | 'test';
  status: string;
};

/** The list's query to the management API: the URL's filters, the extra text filters by name and the page. */
export type ReportQuery<S extends string> = {
  q?: string;
  severity?: string;
  environment?: 'live' | 'test';
  status?: S;
  since?: string;
  limit: number;
  offset: number;
} & Record<string, string | number | undefined>;

/** A column of the kind's own, shown after the environment or after the status. */
export type ReportColumn<T> = {
  header: string;
  after: 'environment' | 'status';
  cell: (row: T, projectId: string) => ReactNode;
};

/** A text filter next to the search box, sent with it (the URL parameter is its name). */
export type TextFilter = { name: string; label: string; placeholder: string };

export type ReportKind<T extends ReportRow, S extends string> = {
  /** The page's title and heading. */
  title: string;
  /** The reports, in a sentence ("No errors match these filters."). */
  plural: string;
  /** The total in words. */
  count: (total: number) => string;
  /** The table's accessible name and its first column's header. */
  tableLabel: string;
  titleHeader: string;
  occurrencesHeader: string;
  /** The path segment of the list and of a report's page. */
  path: string;
  searchPlaceholder: string;
  textFilters?: readonly TextFilter[];
  statusOptions: readonly Option<S>[];
  columns?: readonly ReportColumn<T>[];
  /** The count and first sighting shown for a row (an error's group, a bug's own). */
  seen: (row: T) => { occurrences: number; firstSeenAt: string };
  /** What the empty list says when no filter is set. */
  empty: ReactNode;
  queryKey: (projectId: string) => readonly unknown[];
  load: (projectId: string, query: ReportQuery<S>) => Promise<{ rows: T[]; total: number; counts: Record<S, number> }>;
};

const pick = <T extends string>(params: URLSearchParams, name: string, options: readonly Option<T>[]): T | '' => {
  const value = params.get(name) ?? '';
  return options.find((option) => option.value === value)?.value ?? '';
};

function readView<S extends string>(
  params: URLSearchParams,
  statusOptions: readonly Option<S>[],
  textFilters: readonly TextFilter[] = [],
) {
  return {
    q: params.get('q') ?? '',
    texts: Object.fromEntries(textFilters.map(({ name }) => [name, params.get(name) ?? ''])),
    severity: pick(params, 'severity', SEVERITY_OPTIONS),
    environment: pick(params, 'environment', ENVIRONMENT_OPTIONS),
    status: pick(params, 'status', statusOptions),
    time: pick(params, 'time', TIME_OPTIONS),
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

type View<S extends string> = ReturnType<typeof readView<S>>;
type FilterProps<T extends ReportRow, S extends string> = {
  kind: ReportKind<T, S>;
  view: View<S>;
  update: (changes: Record<string, string>) => void;
};

export function ReportList<T extends ReportRow, S extends string>({ kind }: { kind: ReportKind<T, S> }) {
  useTitle(kind.title);
  const project = useProject();
  const [params, update] = useUrlView();
  const view = readView(params, kind.statusOptions, kind.textFilters);
  const texts = Object.fromEntries(Object.entries(view.texts).filter(([, value]) => value));
  const filtered = Boolean(
    view.q || Object.keys(texts).length > 0 || view.severity || view.environment || view.status || view.time,
  );

  // The time filter is relative to when the view was opened (a minute's precision keeps the query key stable).
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const since = view.time ? TIME_OPTIONS.find((option) => option.value === view.time)?.ms : undefined;
  const query: ReportQuery<S> = {
    ...texts,
    ...(view.q ? { q: view.q } : {}),
    ...(view.severity ? { severity: view.severity } : {}),
    ...(view.environment ? { environment: view.environment } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(since ? { since: new Date(minute - since).toISOString() } : {}),
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  };
  const reports = useQuery({
    queryKey: [...kind.queryKey(project.id), query],
    queryFn: () => kind.load(project.id, query),
    placeholderData: keepPreviousData,
  });
  const rows = reports.data?.rows ?? [];
  const total = reports.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const counts = reports.data?.counts;
  const columns = (after: ReportColumn<T>['after']) => (kind.columns ?? []).filter((column) => column.after === after);

  return (
    <div className="reports stack">
      <h1>{kind.title}</h1>
      {counts ? (
        <p className="muted">
          {kind.statusOptions.map(({ value, label }) => `${counts[value]} ${label.toLowerCase()}`).join(', ')}
        </p>
      ) : null}
      <Filters kind={kind} view={view} update={update} />
      <ListStates
        queries={[reports]}
        what={kind.plural}
        isEmpty={rows.length === 0}
        empty={
          filtered ? (
            <p>
              No {kind.plural} match these filters. <Link to="?">Clear the filters</Link>
            </p>
          ) : (
            kind.empty
          )
        }
      >
        {() => (
          <>
            <p className="muted" role="status">
              {kind.count(total)}
              {pages > 1 ? `, page ${view.page} of ${pages}` : ''}
              {reports.isFetching ? ' (updating…)' : ''}
            </p>
            <DataTable
              className="reports-table report-list-table"
              label={kind.tableLabel}
              wrapClassName="reports-table-wrap"
              columns={[
                kind.titleHeader,
                { label: kind.occurrencesHeader, className: 'num' },
                { label: 'First seen', className: 'col-low' },
                'Last seen',
                'Severity',
                { label: 'Environment', className: 'col-low' },
                ...columns('environment').map((column) => column.header),
                'Status',
                ...columns('status').map((column) => column.header),
              ]}
            >
              {rows.map((row) => {
                const seen = kind.seen(row);
                return (
                  <tr key={row.id}>
                    <td className="reports-title">
                      <Link to={`/projects/${project.id}/${kind.path}/${row.id}`}>{row.title}</Link>
                      <span className="muted reports-message">{row.message.slice(0, 160)}</span>
                    </td>
                    <td className="num">{seen.occurrences}</td>
                    <td className="col-low">
                      <When at={seen.firstSeenAt} />
                    </td>
                    <td>
                      <When at={row.lastSeenAt} />
                    </td>
                    <td>
                      <span className={`severity severity-${row.severity}`}>{severityName(row.severity)}</span>
                    </td>
                    <td className="col-low">{row.environment === 'live' ? 'Live' : 'Test'}</td>
                    {columns('environment').map((column) => (
                      <td key={column.header}>{column.cell(row, project.id)}</td>
                    ))}
                    <td>
                      <span className={`report-status report-status-${row.status}`}>{statusName(row.status)}</span>
                    </td>
                    {columns('status').map((column) => (
                      <td key={column.header}>{column.cell(row, project.id)}</td>
                    ))}
                  </tr>
                );
              })}
            </DataTable>
            <Pager page={view.page} pages={pages} onPage={(page) => update({ page: String(page) })} />
          </>
        )}
      </ListStates>
    </div>
  );
}

function Filters<T extends ReportRow, S extends string>({ kind, view, update }: FilterProps<T, S>) {
  return (
    <search aria-label={`Search and filter ${kind.plural}`} className="reports-filters">
      <TextFilters kind={kind} view={view} update={update} />
      <div className="reports-selects">
        <ViewFilters
          read={(name) => view[name]}
          update={update}
          filters={[
            { name: 'status', label: 'Status', empty: 'Any status', options: kind.statusOptions },
            { name: 'severity', label: 'Severity', empty: 'Any severity', options: SEVERITY_OPTIONS },
            { name: 'environment', label: 'Environment', empty: 'Live and test', options: ENVIRONMENT_OPTIONS },
            { name: 'time', label: 'Last seen', empty: 'Any time', options: TIME_OPTIONS },
          ]}
        />
      </div>
    </search>
  );
}

/**
 * The search box and the kind's text filters, edited here and sent together with Search or Enter.
 * Back and forward change the URL, and the boxes follow.
 */
function TextFilters<T extends ReportRow, S extends string>({ kind, view, update }: FilterProps<T, S>) {
  const fields = [{ name: 'q', label: 'Search', placeholder: kind.searchPlaceholder }, ...(kind.textFilters ?? [])];
  const values = fields.map(({ name }) => (name === 'q' ? view.q : (view.texts[name] ?? '')));
  return <TextFilterForm fields={fields} values={values} onSubmit={update} />;
}
