/**
 * A log group's page: its level, message, category and source, how many entries it counts, when
 * it was first and last seen, every source, app version and user that sent it, its chart (lines
 * per level over the last 24 hours), its lines newest first with their fields, the last entry's
 * data as formatted JSON, and (admins) resolve, ignore or reopen.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';

import { LEVEL_LABELS, type Level, type LogGroup, logKey, logsKey } from '../api/logs.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { LogLines } from './log-lines.tsx';
import { TriageStatus } from '../widgets/triage.tsx';
import { useTitle } from '../use-title.ts';
import { FoundView } from '../widgets/states.tsx';
import './logs.css';
import { When } from '../widgets/when.tsx';
import { LevelHistogram } from './log-histogram.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

type Nav = { logsSearch?: string } | null;

export default function LogGroupPage() {
  const project = useProject();
  const { reportId = '' } = useParams();
  const location = useLocation();
  const state = location.state as Nav;
  const back = `/projects/${project.id}/logs${state?.logsSearch ?? ''}`;
  const group = useApiQuery(logKey(project.id, reportId), () =>
    api.GET('/projects/{projectId}/logs/{reportId}', {
      params: { path: { projectId: project.id, reportId } },
    }),
  );
  useTitle(group.data ? `Log: ${group.data.message.slice(0, 60)}` : 'Log group');
  return (
    <div className="log-group stack">
      <p>
        <Link to={back}>← Back to the logs</Link>
      </p>
      <FoundView
        query={group}
        title="Log group"
        what="the log group"
        notFound="This log group does not exist in this project."
      >
        {(data) => <GroupView group={data} admin={canAdminister(project)} />}
      </FoundView>
    </div>
  );
}

const STATUS_NAMES = { open: 'Open', resolved: 'Resolved', ignored: 'Ignored' } as const;

function GroupView({ group, admin }: { group: LogGroup; admin: boolean }) {
  const level = LEVEL_LABELS[group.level as Level] ?? group.level;
  return (
    <>
      <h1>
        <span className={`level level-${group.level}`}>{level}</span> <span className="visually-hidden">log: </span>
        {group.message.length > 120 ? `${group.message.slice(0, 120)}…` : group.message || '(no message)'}
      </h1>
      <section className="card stack" aria-labelledby="log-facts-title">
        <h2 id="log-facts-title">Summary</h2>
        <dl className="log-facts">
          <dt>Occurrences</dt>
          <dd>{group.occurrences.toLocaleString()}</dd>
          <dt>First seen</dt>
          <dd>
            <When at={group.firstSeenAt} />
          </dd>
          <dt>Last seen</dt>
          <dd>
            <When at={group.lastSeenAt} />
          </dd>
          <dt>Level</dt>
          <dd>{level}</dd>
          <dt>Category</dt>
          <dd>{group.category ?? '–'}</dd>
          <dt>Source</dt>
          <dd>{group.source ?? '–'}</dd>
          <dt>Environment</dt>
          <dd>{group.environment === 'test' ? 'Test key' : 'Live key'}</dd>
          <dt>Status</dt>
          <dd>{STATUS_NAMES[group.status]}</dd>
          {group.appVersion ? (
            <>
              <dt>App version</dt>
              <dd>{group.appVersion}</dd>
            </>
          ) : null}
          {group.userId ? (
            <>
              <dt>User</dt>
              <dd>{group.userId}</dd>
            </>
          ) : null}
          <dt>Fingerprint</dt>
          <dd>
            <code>{group.fingerprint}</code>
          </dd>
        </dl>
      </section>
      <Attribution group={group} />
      {admin ? <Triage group={group} /> : null}
      <GroupChart group={group} />
      <section className="card stack" aria-labelledby="log-lines-title">
        <h2 id="log-lines-title">Lines</h2>
        <LogLines projectId={group.projectId} groupId={group.id} query={{}} empty="No lines kept for this group." />
      </section>
      <section className="card stack" aria-labelledby="log-message-title">
        <h2 id="log-message-title">Message</h2>
        <p className="log-message">{group.message}</p>
      </section>
      <section className="card stack" aria-labelledby="log-data-title">
        <h2 id="log-data-title">Last entry's data</h2>
        {group.data === null ? (
          <p className="muted">The last entry had no data.</p>
        ) : (
          // A scrollable region must be reachable by keyboard.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a focusable, labelled region that scrolls
          <section className="log-data" tabIndex={0} aria-label="Last entry's data as JSON">
            <pre>
              <code>{JSON.stringify(group.data, null, 2)}</code>
            </pre>
          </section>
        )}
      </section>
    </>
  );
}

/** Resolve, ignore or reopen: a triaged group leaves the open list but keeps counting entries. */
function Triage({ group }: { group: LogGroup }) {
  const project = useProject();
  const queryClient = useQueryClient();
  return (
    <TriageStatus
      status={group.status}
      send={async (status) => {
        const updated = await unwrap(
          api.PATCH('/projects/{projectId}/logs/{reportId}', {
            params: { path: { projectId: project.id, reportId: group.id } },
            body: { status },
          }),
        );
        queryClient.setQueryData(logKey(project.id, group.id), updated);
      }}
      onSettled={() => queryClient.invalidateQueries({ queryKey: logsKey(project.id) })}
      done={{
        resolved: 'Resolved. New entries are still counted.',
        ignored: 'Ignored. New entries are still counted.',
        open: 'Reopened.',
      }}
    />
  );
}

/** The group's lines per level over the last 24 hours. */
function GroupChart({ group }: { group: LogGroup }) {
  const chart = useApiQuery([...logKey(group.projectId, group.id), 'histogram'], () =>
    api.GET('/projects/{projectId}/logs/{reportId}/histogram', {
      params: { path: { projectId: group.projectId, reportId: group.id } },
    }),
  );
  return (
    <section className="card stack" aria-labelledby="log-chart-title">
      <h2 id="log-chart-title">Volume, last 24 hours</h2>
      <LevelHistogram query={chart} label="This group's lines by level over time" what="the chart" />
    </section>
  );
}

/** Every source, app version and user that sent the group, with counts. */
function Attribution({ group }: { group: LogGroup }) {
  const lists = [
    ['Sources', group.attribution.sources],
    ['App versions', group.attribution.appVersions],
    ['Users', group.attribution.users],
  ] as const;
  if (lists.every(([, values]) => values.length === 0)) return null;
  return (
    <section className="card stack" aria-labelledby="log-attribution-title">
      <h2 id="log-attribution-title">Sent by</h2>
      <dl className="log-sent">
        {lists.map(([label, values]) =>
          values.length === 0 ? null : (
            <div key={label} className="log-attribution">
              <dt>{label}</dt>
              <dd>{values.map((entry) => `${entry.value} (${entry.count.toLocaleString()})`).join(', ')}</dd>
            </div>
          ),
        )}
      </dl>
    </section>
  );
}
