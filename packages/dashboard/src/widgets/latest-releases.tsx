/**
 * Home's "Latest releases": for each of the account's first projects (five at most), its newest
 * release's health over the last 7 days, linking to the release's page, and what broke in it: the
 * error groups new in it and regressed in it, with their counts, and the top few of each
 * (widgets/release-broke.tsx, from the release's overview).
 */
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { releaseHealthKey } from '../api/release-health.ts';
import { ReleaseBroke } from './release-broke.tsx';
import { ReleaseHealthFigures } from './release-health-figures.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

const MAX_PROJECTS = 5;

export function LatestReleases() {
  const projects = useApiQuery(['projects'], () => api.GET('/projects'));
  const shown = (projects.data?.projects ?? []).slice(0, MAX_PROJECTS);
  if (shown.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="latest-releases-title">
      <h2 id="latest-releases-title">Latest releases</h2>
      {shown.map((project) => (
        <LatestRelease key={project.id} projectId={project.id} name={project.name} />
      ))}
    </section>
  );
}

function LatestRelease({ projectId, name }: { projectId: string; name: string }) {
  const health = useApiQuery(releaseHealthKey(projectId, 7), () =>
    api.GET('/projects/{projectId}/release-health', { params: { path: { projectId }, query: { days: 7 } } }),
  );
  const latest = health.data?.latest;
  if (!latest) return null;
  return (
    <section className="card stack" aria-label={`${name}: release ${latest.version}`}>
      <h3>
        {name}:{' '}
        <Link to={`/projects/${projectId}/releases/${encodeURIComponent(latest.version)}`}>
          release {latest.version}
        </Link>
      </h3>
      <ReleaseHealthFigures release={latest} />
      <ReleaseBroke projectId={projectId} name={name} version={latest.version} />
    </section>
  );
}
