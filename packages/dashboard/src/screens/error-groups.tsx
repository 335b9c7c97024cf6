/**
 * Error groups (issue 31): one row per group — the error and where it happened, its SDK
 * environment, release, status, users, events and last seen — with filters (status, environment,
 * release, level, tag, text) and sorts (last seen, events, users) in the URL, and pages by cursor.
 * Every column shows from 1280 px; below that the low-priority ones (level, first release) hide.
 */
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import {
  ERROR_STATUS_OPTIONS,
  type ErrorGroupQuery,
  type ErrorGroupSummary,
  errorGroupsKey,
  GROUP_SORT_OPTIONS,
  LEVEL_OPTIONS,
  statusName,
} from '../api/reports.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote } from '../ui.tsx';
import { TextFilterForm } from '../widgets/text-filters.tsx';
import { useTitle } from '../use-title.ts';
import { useUrlView } from '../url-view.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import './reports.css';
import './error-groups.css';
import { DataTable } from '../widgets/data-table.tsx';
import { When } from '../widgets/when.tsx';
import { ViewFilters } from '../widgets/view-filters.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { SelectBox } from '../widgets/select-box.tsx';

const TEXT_FILTERS = [
  { name: 'q', label: 'Search', placeholder: 'Title or culprit' },
  { name: 'release', label: 'Release', placeholder: 'e.g. 1.4.2' },
  { name: 'tag', label: 'Tag', placeholder: 'key:value, e.g. browser.name:Chrome' },
] as const;

export default function ErrorGroups() {
  const project = useProject();
  useTitle('Errors');
  const [params, update] = useUrlView();
  const read = (name: string) => params.get(name) ?? '';
  const cursor = read('cursor');
  const query: ErrorGroupQuery = {};
  for (const name of ['q', 'release', 'tag', 'status', 'level', 'sdkEnvironment', 'sort', 'cursor'] as const) {
    if (read(name)) (query as Record<string, string>)[name] = read(name);
  }
  const filtered = ['q', 'release', 'tag', 'status', 'level', 'sdkEnvironment'].some((name) => read(name));
  const groups = useApiQuery(
    [...errorGroupsKey(project.id), 'list', query],
    () => api.GET('/projects/{projectId}/error-groups', { params: { path: { projectId: project.id }, query } }),
    { placeholderData: keepPreviousData },
  );
  const environments = groups.data?.environments ?? [];
  const change = (changes: Record<string, string>) => update({ ...changes, cursor: '' });
  return (
    <div className="reports stack">
      <h1>Errors</h1>
      {environments.length > 0 ? (
        <p className="muted">
          {environments
            .map((e) => `${e.environment}: ${e.groups} ${e.groups === 1 ? 'group' : 'groups'}, ${e.events} events`)
            .join(' · ')}
        </p>
      ) : null}
      <search aria-label="Search and filter errors" className="reports-filters">
        <TextFilterForm fields={TEXT_FILTERS} values={TEXT_FILTERS.map(({ name }) => read(name))} onSubmit={change} />
        <div className="reports-selects">
          <ViewFilters
            read={read}
            update={change}
            filters={[
              { name: 'status', label: 'Status', empty: 'Any status', options: ERROR_STATUS_OPTIONS },
              {
                name: 'sdkEnvironment',
                label: 'Environment',
                empty: 'Every environment',
                options: [...new Set([...environments.map((e) => e.environment), read('sdkEnvironment')])]
                  .filter(Boolean)
                  .map((value) => ({ value, label: value })),
              },
              { name: 'level', label: 'Level', empty: 'Any level', options: LEVEL_OPTIONS },
            ]}
          />
          <SelectField
            label="Sort by"
            value={read('sort') || 'lastSeen'}
            options={GROUP_SORT_OPTIONS}
            onChange={(sort) => change({ sort: sort === 'lastSeen' ? '' : sort })}
          />
        </div>
      </search>
      {groups.isPending ? (
        <Loading what="errors" />
      ) : groups.isError ? (
        <ErrorNote error={groups.error} />
      ) : groups.data.groups.length === 0 ? (
        <Empty>
          {filtered ? (
            <p>
              No errors match these filters. <Link to="?">Clear the filters</Link>
            </p>
          ) : (
            <p>
              No errors yet. Point a Sentry SDK at the DSN of an API key, or send{' '}
              <code>POST /api/public/v1/errors</code> with the <code>errors:write</code> scope.
            </p>
          )}
        </Empty>
      ) : (
        <>
          <p className="muted" role="status">
            {groups.data.groups.length === 1 ? '1 error group' : `${groups.data.groups.length} error groups`}
            {cursor ? ' (a later page)' : ''}
            {groups.data.nextCursor ? ', more on the next page' : ''}
            {groups.isFetching ? ' (updating…)' : ''}
          </p>
          <GroupTable projectId={project.id} rows={groups.data.groups} admin={canAdminister(project)} />
          <nav className="row" aria-label="Pages">
            {cursor ? (
              <Button variant="secondary" onPress={() => window.history.back()}>
                Previous page
              </Button>
            ) : null}
            {groups.data.nextCursor ? (
              <Button variant="secondary" onPress={() => update({ cursor: groups.data.nextCursor ?? '' })}>
                Next page
              </Button>
            ) : null}
          </nav>
        </>
      )}
    </div>
  );
}

function GroupTable({ projectId, rows, admin }: { projectId: string; rows: ErrorGroupSummary[]; admin: boolean }) {
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const toggle = (id: string, on: boolean) =>
    setSelected((now) => (on ? [...now, id] : now.filter((one) => one !== id)));
  // Merged into the first selected in the list's order (the most recent, as listed).
  const merge = async () => {
    const ordered = rows.map((row) => row.id).filter((id) => selected.includes(id));
    const [target, ...sources] = ordered;
    if (!target || sources.length === 0) return;
    setBusy(true);
    setProblem(null);
    try {
      await unwrap(
        api.POST('/projects/{projectId}/error-groups/{groupId}/merge', {
          params: { path: { projectId, groupId: target } },
          body: { groupIds: sources },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: errorGroupsKey(projectId) });
      navigate(`/projects/${projectId}/errors/groups/${target}`);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      {admin ? (
        <div className="row">
          <Button variant="secondary" isDisabled={selected.length < 2} busy={busy} onPress={() => void merge()}>
            {selected.length < 2 ? 'Merge selected groups' : `Merge ${selected.length} groups`}
          </Button>
          <span className="muted">Select two or more groups: they merge into the first selected.</span>
        </div>
      ) : null}
      {problem ? <ErrorNote error={problem} /> : null}
      <DataTable
        className="reports-table error-groups-table"
        label="Error groups"
        wrapClassName="reports-table-wrap"
        columns={[
          admin && { label: 'Select', hidden: true },
          'Error',
          { label: 'Level', className: 'col-low' },
          'Environment',
          'Release',
          'Status',
          { label: 'Users', className: 'num' },
          { label: 'Count', className: 'num' },
          'Last seen',
        ]}
      >
        {rows.map((row) => (
          <tr key={row.id}>
            {admin ? (
              <td>
                <SelectBox name={row.title} checked={selected.includes(row.id)} onChange={(on) => toggle(row.id, on)} />
              </td>
            ) : null}
            <td className="reports-title">
              <Link to={`/projects/${projectId}/errors/groups/${row.id}`}>{row.title}</Link>
              {row.unhandled ? <span className="badge-unhandled">Unhandled</span> : null}
              {row.culprit ? <span className="muted reports-message">{row.culprit}</span> : null}
            </td>
            <td className="col-low">{row.level}</td>
            <td>{row.sdkEnvironment}</td>
            <td>{row.lastRelease ?? <span className="muted">–</span>}</td>
            <td>
              <span className={`report-status report-status-${row.status}`}>{statusName(row.status)}</span>
            </td>
            <td className="num">{row.users}</td>
            <td className="num">{row.events}</td>
            <td>
              <When at={row.lastSeenAt} />
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
