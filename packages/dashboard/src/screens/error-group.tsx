/**
 * One error group: its message, stack trace (frames one per line, long traces folded), the
 * breadcrumbs before it as a timeline, device, network and app context, its latest occurrence,
 * a chart of occurrences (24 hours by hour, 14 days by day) and its lifecycle (admins).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { type ErrorRecord, errorsKey, when } from '../api/reports.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { useTitle } from '../use-title.ts';
import { QueryView } from '../widgets/states.tsx';
import { TimeChart } from '../widgets/time-chart.tsx';
import { Fact, ReportSummary } from '../widgets/report-summary.tsx';
import { resolveInNextRelease, TriageStatus } from '../widgets/triage.tsx';
import './reports.css';
import { ReportPage } from '../widgets/report-page.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { ToggleButtons } from '../widgets/toggle-buttons.tsx';

const CHART_RANGES = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '14d', label: 'Last 14 days' },
] as const;

/** Frames shown before the rest of a long trace is folded. */
const SHOWN_FRAMES = 8;

export default function ErrorGroup() {
  const project = useProject();
  const { reportId = '' } = useParams();
  const error = useApiQuery([...errorsKey(project.id), 'one', reportId], () =>
    api.GET('/projects/{projectId}/errors/{reportId}', { params: { path: { projectId: project.id, reportId } } }),
  );
  useTitle(error.data ? `Error: ${error.data.title}` : 'Error');
  return (
    <ReportPage
      back={`/projects/${project.id}/errors/records`}
      backLabel="All error records"
      query={error}
      what="the error"
    >
      {(record) => <ErrorView record={record} admin={canAdminister(project)} />}
    </ReportPage>
  );
}

function ErrorView({ record, admin }: { record: ErrorRecord; admin: boolean }) {
  const project = useProject();
  return (
    <>
      {record.groupId ? (
        <p>
          <Link to={`/projects/${project.id}/errors/groups/${record.groupId}`}>
            Open its error group, with every event
          </Link>
        </p>
      ) : null}
      <ReportSummary record={record} occurrencesName="Occurrences" seen={record.group}>
        <Fact name="Release" value={record.release} />
        <Fact name="Type" value={record.errorType} />
        {record.resolvedInRelease ? <Fact name="Resolved after release" value={record.resolvedInRelease} /> : null}
      </ReportSummary>
      {admin ? <Lifecycle record={record} /> : null}
      <History reportId={record.id} refresh={record.group.occurrences} />
      <section className="card stack" aria-labelledby="trace-title">
        <h2 id="trace-title">Stack trace</h2>
        <StackTrace trace={record.stackTrace} />
      </section>
      <section className="card stack" aria-labelledby="crumbs-title">
        <h2 id="crumbs-title">Breadcrumbs</h2>
        <Breadcrumbs crumbs={record.breadcrumbs ?? []} />
      </section>
      <section className="card stack" aria-labelledby="context-title">
        <h2 id="context-title">Context</h2>
        <div className="report-context">
          <Context title="Device" data={record.device} />
          <Context title="Network" data={record.network} />
          <Context title="App" data={record.app} />
        </div>
      </section>
      <section className="card stack" aria-labelledby="latest-title">
        <h2 id="latest-title">Latest occurrence</h2>
        <dl className="report-facts">
          <Fact name="Received" value={when(record.lastSeenAt)} />
          <Fact name="Client time" value={record.occurredAt ? when(record.occurredAt) : null} />
          <Fact name="URL" value={record.url} />
          <Fact name="Referrer" value={record.referrer} />
        </dl>
        <p className="muted">
          Repeats within an hour of a record's first report are counted on that record ({record.occurrences} on this
          one,
          {record.group.occurrences} over the group's {record.group.records} records); the stack trace, breadcrumbs and
          context are those of this record's first report.
        </p>
        {record.metadata ? (
          <details>
            <summary>Metadata</summary>
            <pre className="report-json">{JSON.stringify(record.metadata, null, 2)}</pre>
          </details>
        ) : null}
      </section>
    </>
  );
}

function Lifecycle({ record }: { record: ErrorRecord }) {
  const project = useProject();
  const queryClient = useQueryClient();
  return (
    <TriageStatus
      status={record.status}
      send={(status, options) =>
        unwrap(
          api.PATCH('/projects/{projectId}/errors/{reportId}', {
            params: { path: { projectId: project.id, reportId: record.id } },
            body: { status, ...options },
          }),
        )
      }
      onSettled={() => queryClient.invalidateQueries({ queryKey: errorsKey(project.id) })}
      done={{
        resolved: 'Resolved. If it occurs again it shows as regressed.',
        ignored: 'Ignored. New reports are still counted.',
        open: 'Reopened.',
      }}
      extra={resolveInNextRelease({
        status: record.status,
        release: record.release,
        resolvedInRelease: record.resolvedInRelease,
        what: 'Reports',
      })}
      footer={
        !record.release ? (
          <p className="muted">Resolve in next release needs the release (app.version) the reports come from.</p>
        ) : null
      }
    />
  );
}

/**
 * The chart of the group of record `reportId` (its fingerprint), or of error group `groupId`;
 * `refresh` changes when its count does.
 */
export function History({ reportId, groupId, refresh }: { reportId?: string; groupId?: string; refresh: number }) {
  const project = useProject();
  const [range, setRange] = useState<'24h' | '14d'>('24h');
  const history = useQuery({
    queryKey: [...errorsKey(project.id), 'history', reportId ?? groupId, range, refresh],
    queryFn: () =>
      groupId
        ? unwrap(
            api.GET('/projects/{projectId}/error-groups/{groupId}/history', {
              params: { path: { projectId: project.id, groupId }, query: { range } },
            }),
          )
        : unwrap(
            api.GET('/projects/{projectId}/errors/{reportId}/history', {
              params: { path: { projectId: project.id, reportId: reportId ?? '' }, query: { range } },
            }),
          ),
  });
  const label =
    range === '24h' ? 'Occurrences in the last 24 hours, by hour' : 'Occurrences in the last 14 days, by day';
  return (
    <section className="card stack" aria-labelledby="history-title">
      <div className="report-header">
        <h2 id="history-title">Occurrences over time</h2>
        <ToggleButtons
          className="chart-toggle"
          legend="Chart range"
          options={CHART_RANGES}
          value={range}
          onChange={setRange}
        />
      </div>
      <QueryView query={history} what="the chart">
        {(data) => <TimeChart buckets={data.buckets} bucket={data.bucket} label={label} />}
      </QueryView>
    </section>
  );
}

/** Frames one per line; the first ones shown, the rest folded. */
function StackTrace({ trace }: { trace: string | null }) {
  if (!trace) return <p className="muted">No stack trace was sent with this error.</p>;
  const lines = trace
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const shown = lines.slice(0, SHOWN_FRAMES);
  const folded = lines.slice(SHOWN_FRAMES);
  const frame = (line: string, index: number) => (
    <li key={index} className={index === 0 ? 'frame-head' : undefined}>
      {line.trim()}
    </li>
  );
  return (
    <div>
      <ol className="stack-trace" aria-label="Frames">
        {shown.map(frame)}
      </ol>
      {folded.length > 0 ? (
        <details className="stack-trace">
          <summary>{folded.length === 1 ? 'Show 1 more frame' : `Show ${folded.length} more frames`}</summary>
          <ol className="stack-trace" start={SHOWN_FRAMES + 1} aria-label="More frames">
            {folded.map((line, i) => frame(line, SHOWN_FRAMES + i))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}

export type Crumb = {
  timestamp?: unknown;
  type?: unknown;
  message?: unknown;
  category?: unknown;
  level?: unknown;
  data?: unknown;
};

export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  if (crumbs.length === 0) return <p className="muted">No breadcrumbs were sent with this error.</p>;
  const sorted = [...crumbs].sort((a, b) => String(a.timestamp ?? '').localeCompare(String(b.timestamp ?? '')));
  return (
    <ol className="breadcrumbs" aria-label="Breadcrumbs, oldest first">
      {sorted.map((crumb, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: breadcrumbs have no id and never reorder
        <li key={index}>
          <div className="crumb-meta">
            {typeof crumb.timestamp === 'string' ? (
              <time dateTime={crumb.timestamp}>
                {new Date(crumb.timestamp).toLocaleTimeString(undefined, {
                  hour: '2-digit',
                  minute: '2-digit',
                  second: '2-digit',
                })}
              </time>
            ) : null}{' '}
            · <span className="crumb-type">{String(crumb.type ?? 'custom')}</span>
            {crumb.category ? ` · ${String(crumb.category)}` : ''}
            {crumb.level ? ` · ${String(crumb.level)}` : ''}
          </div>
          <div>{String(crumb.message ?? '')}</div>
          {crumb.data && typeof crumb.data === 'object' && Object.keys(crumb.data).length > 0 ? (
            <details>
              <summary>Data</summary>
              <pre>{JSON.stringify(crumb.data, null, 2)}</pre>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export function Context({ title, data }: { title: string; data: Record<string, unknown> | null }) {
  const entries = Object.entries(data ?? {});
  return (
    <div>
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p className="muted">Not sent.</p>
      ) : (
        <dl className="report-facts">
          {entries.map(([key, value]) => (
            <Fact key={key} name={key} value={typeof value === 'string' ? value : JSON.stringify(value)} />
          ))}
        </dl>
      )}
    </div>
  );
}
