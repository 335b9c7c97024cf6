/**
 * Bug reports of the project: occurrence count, first and last seen, severity, environment,
 * status and the linked idea, filtered through the URL's search parameters (severity,
 * environment, status, time, text).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import {
  bugsKey,
  ENVIRONMENT_OPTIONS,
  SEVERITY_OPTIONS,
  severityName,
  statusName,
  TIME_OPTIONS,
  when,
} from '../api/reports.ts';
import { useProject } from '../project-layout.tsx';
import { ErrorNote } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import './reports.css';
import { SearchForm } from '../widgets/search-form.tsx';
import { useUrlView } from '../url-view.ts';
import { Pager } from '../widgets/pager.tsx';

const PAGE_SIZE = 25;
const BUG_STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'ignored', label: 'Ignored' },
] as const;

type Option = { readonly value: string; readonly label: string };
const pick = (params: URLSearchParams, name: string, options: readonly Option[]) => {
  const value = params.get(name) ?? '';
  return options.some((option) => option.value === value) ? value : '';
};

function readView(params: URLSearchParams) {
  return {
    q: params.get('q') ?? '',
    severity: pick(params, 'severity', SEVERITY_OPTIONS),
    environment: pick(params, 'environment', ENVIRONMENT_OPTIONS),
    status: pick(params, 'status', BUG_STATUS_OPTIONS),
    time: pick(params, 'time', TIME_OPTIONS),
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

export default function Bugs() {
  useTitle('Bug reports');
  const project = useProject();
  const [params, update] = useUrlView();
  const view = readView(params);
  const filtered = Boolean(view.q || view.severity || view.environment || view.status || view.time);
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const since = view.time ? TIME_OPTIONS.find((option) => option.value === view.time)?.ms : undefined;
  const query = {
    ...(view.q ? { q: view.q } : {}),
    ...(view.severity ? { severity: view.severity } : {}),
    ...(view.environment ? { environment: view.environment as 'live' | 'test' } : {}),
    ...(view.status ? { status: view.status as 'open' | 'resolved' | 'ignored' } : {}),
    ...(since ? { since: new Date(minute - since).toISOString() } : {}),
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  };
  const bugs = useQuery({
    queryKey: [...bugsKey(project.id), query],
    queryFn: () =>
      unwrap(api.GET('/projects/{projectId}/bugs', { params: { path: { projectId: project.id }, query } })),
    placeholderData: keepPreviousData,
  });
  const rows = bugs.data?.bugs ?? [];
  const total = bugs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const counts = bugs.data?.counts;

  return (
    <div className="reports stack">
      <h1>Bug reports</h1>
      {counts ? (
        <p className="muted">
          {counts.open} open, {counts.resolved} resolved, {counts.ignored} ignored
        </p>
      ) : null}
      <Filters view={view} update={update} />
      {bugs.isPending ? (
        <Loading what="bug reports" />
      ) : bugs.isError ? (
        <ErrorNote error={bugs.error} />
      ) : rows.length === 0 ? (
        <Empty>
          {filtered ? (
            <p>
              No bug reports match these filters. <Link to="?">Clear the filters</Link>
            </p>
          ) : (
            <p>
              No bug reports yet. They arrive from the widget, the SDKs and <code>POST /api/public/v1/bugs</code>.
            </p>
          )}
        </Empty>
      ) : (
        <>
          <p className="muted" role="status">
            {total === 1 ? '1 bug report' : `${total} bug reports`}
            {pages > 1 ? `, page ${view.page} of ${pages}` : ''}
            {bugs.isFetching ? ' (updating…)' : ''}
          </p>
          <div className="reports-table-wrap">
            <table className="table reports-table" aria-label="Bug reports">
              <thead>
                <tr>
                  <th scope="col">Bug</th>
                  <th scope="col" className="num">
                    Reports
                  </th>
                  <th scope="col">First seen</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Status</th>
                  <th scope="col">Idea</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="reports-title">
                      <Link to={`/projects/${project.id}/bugs/${row.id}`}>{row.title}</Link>
                      <span className="muted reports-message">{row.message.slice(0, 160)}</span>
                    </td>
                    <td className="num">{row.occurrences}</td>
                    <td>
                      <time dateTime={row.firstSeenAt}>{when(row.firstSeenAt)}</time>
                    </td>
                    <td>
                      <time dateTime={row.lastSeenAt}>{when(row.lastSeenAt)}</time>
                    </td>
                    <td>
                      <span className={`severity severity-${row.severity}`}>{severityName(row.severity)}</span>
                    </td>
                    <td>{row.environment === 'live' ? 'Live' : 'Test'}</td>
                    <td>
                      <span className={`report-status report-status-${row.status}`}>{statusName(row.status)}</span>
                    </td>
                    <td>
                      {row.featureId ? (
                        <Link to={`/projects/${project.id}/inbox/${row.featureId}`}>
                          Open idea<span className="visually-hidden"> for {row.title}</span>
                        </Link>
                      ) : (
                        <span className="muted">–</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={view.page} pages={pages} onPage={(page) => update({ page: String(page) })} />
        </>
      )}
    </div>
  );
}

function Filters({
  view,
  update,
}: {
  view: ReturnType<typeof readView>;
  update: (changes: Record<string, string>) => void;
}) {
  return (
    <search aria-label="Search and filter bug reports" className="reports-filters">
      <SearchForm
        value={view.q}
        onSearch={(q) => update({ q })}
        placeholder="Title, message, stack trace or type"
        className="reports-search row"
        fieldClassName="field reports-grow"
      />
      <div className="reports-selects">
        <SelectField
          label="Status"
          value={view.status}
          options={[{ value: '', label: 'Any status' }, ...BUG_STATUS_OPTIONS]}
          onChange={(status) => update({ status })}
        />
        <SelectField
          label="Severity"
          value={view.severity}
          options={[{ value: '', label: 'Any severity' }, ...SEVERITY_OPTIONS]}
          onChange={(severity) => update({ severity })}
        />
        <SelectField
          label="Environment"
          value={view.environment}
          options={[{ value: '', label: 'Live and test' }, ...ENVIRONMENT_OPTIONS]}
          onChange={(environment) => update({ environment })}
        />
        <SelectField
          label="Last seen"
          value={view.time}
          options={[{ value: '', label: 'Any time' }, ...TIME_OPTIONS.map(({ value, label }) => ({ value, label }))]}
          onChange={(time) => update({ time })}
        />
      </div>
    </search>
  );
}
