/**
 * Error groups of the project: occurrence count, first and last seen, severity, environment,
 * release and status, filtered through the URL's search parameters (severity, environment,
 * release, status, time, text) so a view can be shared and the back button returns to it.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import {
  ENVIRONMENT_OPTIONS,
  ERROR_STATUS_OPTIONS,
  type ErrorSummary,
  errorsKey,
  SEVERITY_OPTIONS,
  severityName,
  statusName,
  TIME_OPTIONS,
  when,
} from '../api/reports.ts';
import { useProject } from '../project-layout.tsx';
import { Button, ErrorNote } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import './reports.css';
import { useUrlView } from '../url-view.ts';
import { Pager } from '../widgets/pager.tsx';

const PAGE_SIZE = 25;

type Option = { readonly value: string; readonly label: string };
const pick = (params: URLSearchParams, name: string, options: readonly Option[]) => {
  const value = params.get(name) ?? '';
  return options.some((option) => option.value === value) ? value : '';
};

function readView(params: URLSearchParams) {
  return {
    q: params.get('q') ?? '',
    release: params.get('release') ?? '',
    severity: pick(params, 'severity', SEVERITY_OPTIONS),
    environment: pick(params, 'environment', ENVIRONMENT_OPTIONS),
    status: pick(params, 'status', ERROR_STATUS_OPTIONS),
    time: pick(params, 'time', TIME_OPTIONS),
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

export default function Errors() {
  useTitle('Errors');
  const project = useProject();
  const [params, update] = useUrlView();
  const view = readView(params);
  const filtered = Boolean(view.q || view.release || view.severity || view.environment || view.status || view.time);

  // The time filter is relative to when the view was opened (a minute's precision keeps the query key stable).
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const since = view.time ? TIME_OPTIONS.find((option) => option.value === view.time)?.ms : undefined;
  const query = {
    ...(view.q ? { q: view.q } : {}),
    ...(view.release ? { release: view.release } : {}),
    ...(view.severity ? { severity: view.severity } : {}),
    ...(view.environment ? { environment: view.environment as 'live' | 'test' } : {}),
    ...(view.status ? { status: view.status as ErrorSummary['status'] } : {}),
    ...(since ? { since: new Date(minute - since).toISOString() } : {}),
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  };
  const errors = useQuery({
    queryKey: [...errorsKey(project.id), query],
    queryFn: () =>
      unwrap(api.GET('/projects/{projectId}/errors', { params: { path: { projectId: project.id }, query } })),
    placeholderData: keepPreviousData,
  });
  const rows = errors.data?.errors ?? [];
  const total = errors.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const counts = errors.data?.counts;

  return (
    <div className="reports stack">
      <h1>Errors</h1>
      {counts ? (
        <p className="muted">
          {counts.open} open, {counts.regressed} regressed, {counts.resolved} resolved, {counts.ignored} ignored
        </p>
      ) : null}
      <Filters view={view} update={update} />
      {errors.isPending ? (
        <Loading what="errors" />
      ) : errors.isError ? (
        <ErrorNote error={errors.error} />
      ) : rows.length === 0 ? (
        <Empty>
          {filtered ? (
            <p>
              No errors match these filters. <Link to="?">Clear the filters</Link>
            </p>
          ) : (
            <p>
              No errors yet. Apps report them with <code>POST /api/public/v1/errors</code> and a key with the{' '}
              <code>errors:write</code> scope; repeats within an hour are counted on one group.
            </p>
          )}
        </Empty>
      ) : (
        <>
          <p className="muted" role="status">
            {total === 1 ? '1 error group' : `${total} error groups`}
            {pages > 1 ? `, page ${view.page} of ${pages}` : ''}
            {errors.isFetching ? ' (updating…)' : ''}
          </p>
          <div className="reports-table-wrap">
            <table className="table reports-table" aria-label="Error groups">
              <thead>
                <tr>
                  <th scope="col">Error</th>
                  <th scope="col" className="num">
                    Occurrences
                  </th>
                  <th scope="col">First seen</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Environment</th>
                  <th scope="col">Release</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="reports-title">
                      <Link to={`/projects/${project.id}/errors/${row.id}`}>{row.title}</Link>
                      <span className="muted reports-message">{row.message.slice(0, 160)}</span>
                    </td>
                    <td className="num">{row.group.occurrences}</td>
                    <td>
                      <time dateTime={row.group.firstSeenAt}>{when(row.group.firstSeenAt)}</time>
                    </td>
                    <td>
                      <time dateTime={row.lastSeenAt}>{when(row.lastSeenAt)}</time>
                    </td>
                    <td>
                      <span className={`severity severity-${row.severity}`}>{severityName(row.severity)}</span>
                    </td>
                    <td>{row.environment === 'live' ? 'Live' : 'Test'}</td>
                    <td>{row.release ?? <span className="muted">–</span>}</td>
                    <td>
                      <span className={`report-status report-status-${row.status}`}>{statusName(row.status)}</span>
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
  const [text, setText] = useState(view.q);
  const [release, setRelease] = useState(view.release);
  useEffect(() => setText(view.q), [view.q]);
  useEffect(() => setRelease(view.release), [view.release]);
  const searchId = useId();
  const releaseId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: text.trim(), release: release.trim() });
  };
  return (
    <search aria-label="Search and filter errors" className="reports-filters">
      <form className="reports-search row" onSubmit={submit}>
        <div className="field reports-grow">
          <label htmlFor={searchId}>Search</label>
          <input
            id={searchId}
            type="search"
            name="q"
            value={text}
            placeholder="Title, message, stack trace, type or URL"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={releaseId}>Release</label>
          <input
            id={releaseId}
            name="release"
            value={release}
            placeholder="e.g. 1.4.2"
            onChange={(event) => setRelease(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <div className="reports-selects">
        <SelectField
          label="Status"
          value={view.status}
          options={[{ value: '', label: 'Any status' }, ...ERROR_STATUS_OPTIONS]}
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
