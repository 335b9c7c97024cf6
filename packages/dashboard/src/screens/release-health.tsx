/**
 * A release's page (`/app/projects/:id/releases/:version`): who has it (sessions and version
 * checks per hour or day, the adoption chart), whether it is healthy (crash-free sessions and
 * users, sessions by status) and how it compares with the previous release, over the last 1, 7,
 * 14 or 30 days (in the URL, so a view can be shared); what broke and what shipped in it (issue 33).
 */
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import { oneReleaseHealthKey, type ReleaseHealth } from '../api/release-health.ts';
import { useProject } from '../project-layout.tsx';
import { useTitle } from '../use-title.ts';
import { ReleaseHealthFigures } from '../widgets/release-health-figures.tsx';
import { ReleaseHubSections } from '../widgets/release-hub.tsx';
import { QueryView } from '../widgets/states.tsx';
import { TimeChart } from '../widgets/time-chart.tsx';
import './releases.css';
import { DataTable } from '../widgets/data-table.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { ReleaseHealthCells } from '../widgets/release-health-cells.tsx';

const RANGES = [1, 7, 14, 30] as const;

export default function ReleasePage() {
  const project = useProject();
  const version = useParams()['version'] ?? '';
  useTitle(`Release ${version}`);
  const [search, setSearch] = useSearchParams();
  const asked = Number(search.get('days'));
  const days = (RANGES as readonly number[]).includes(asked) ? asked : 14;
  const health = useApiQuery(oneReleaseHealthKey(project.id, version, days), () =>
    api.GET('/projects/{projectId}/release-health/{version}', {
      params: { path: { projectId: project.id, version }, query: { days } },
    }),
  );
  return (
    <div className="releases stack">
      <p>
        <Link to={`/projects/${project.id}/releases`}>All releases</Link>
      </p>
      <h1>
        Release <code>{version}</code>
      </h1>
      <fieldset className="row release-range">
        <legend className="visually-hidden">Time range</legend>
        {RANGES.map((range) => (
          <button
            key={range}
            type="button"
            className="button button-secondary"
            aria-pressed={range === days}
            onClick={() => setSearch({ days: String(range) })}
          >
            {range === 1 ? 'Last 24 hours' : `Last ${range} days`}
          </button>
        ))}
      </fieldset>
      <QueryView query={health} what="the release's health">
        {(data) => <Health data={data} />}
      </QueryView>
      <ReleaseHubSections version={version} days={days} />
    </div>
  );
}

function Health({ data }: { data: ReleaseHealth }) {
  const { release, previous, series, bucket } = data;
  const per = bucket === 'hour' ? 'by hour' : 'by day';
  return (
    <>
      <section className="card stack" aria-labelledby="health-title">
        <h2 id="health-title">Health</h2>
        <ReleaseHealthFigures release={release} />
        <p className="muted">
          Sessions: {release.sessions.healthy} healthy, {release.sessions.errored} with handled errors,{' '}
          {release.sessions.unhandled} with unhandled errors, {release.sessions.abnormal} abnormal,{' '}
          {release.sessions.crashed} crashed. Users who had a crash: {release.users.crashed}.
        </p>
      </section>
      <section className="card stack" aria-labelledby="adoption-title">
        <h2 id="adoption-title">Adoption</h2>
        <TimeChart
          buckets={series.map((p) => ({ start: p.start, count: p.sessions }))}
          bucket={bucket}
          label={`Sessions on ${release.version}, ${per}`}
          unit="sessions"
        />
        <TimeChart
          buckets={series.map((p) => ({ start: p.start, count: p.versionChecks }))}
          bucket={bucket}
          label={`Version checks from clients on ${release.version}, ${per}`}
          unit="version checks"
        />
      </section>
      <section className="card stack" aria-labelledby="compare-title">
        <h2 id="compare-title">Compared with the previous release</h2>
        {previous ? (
          <DataTable
            caption={
              <>
                {release.version} and {previous.version}
              </>
            }
            columns={['Release', 'Crash-free sessions', 'Crash-free users', 'Sessions', 'Users', 'Version checks']}
          >
            {[release, previous].map((r) => (
              <tr key={r.version}>
                <th scope="row">
                  <code>{r.version}</code>
                </th>
                <ReleaseHealthCells release={r} />
              </tr>
            ))}
          </DataTable>
        ) : (
          <p>No earlier release to compare with.</p>
        )}
      </section>
    </>
  );
}
