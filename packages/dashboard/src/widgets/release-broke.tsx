/**
 * What broke in a release, for Home (issue 33): how many error groups are new in it and how many
 * regressed in it, with their events and users, and the top three of each linking to the group's
 * page. Read from the release's overview (the same API as the release page), over 7 days.
 */
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { type ReleaseOverview, releaseOverviewKey } from '../api/release-hub.ts';
import { useApiQuery } from '../api/use-api-query.ts';

const DAYS = 7;
const TOP = 3;

type Broke = ReleaseOverview['broke']['new'];

export function ReleaseBroke({ projectId, name, version }: { projectId: string; name: string; version: string }) {
  const overview = useApiQuery(releaseOverviewKey(projectId, version, DAYS), () =>
    api.GET('/projects/{projectId}/releases/{version}/overview', {
      params: { path: { projectId, version }, query: { days: DAYS } },
    }),
  );
  const broke = overview.data?.broke;
  if (!broke) return null;
  const label = `What broke in ${name} ${version}`;
  return (
    <section className="stack" aria-label={label}>
      <h4>What broke</h4>
      {broke.new.groups === 0 && broke.regressed.groups === 0 ? (
        <p className="muted">No new or regressed error groups.</p>
      ) : (
        <>
          <BrokeList projectId={projectId} kind="new" broke={broke.new} />
          <BrokeList projectId={projectId} kind="regressed" broke={broke.regressed} />
        </>
      )}
    </section>
  );
}

function BrokeList({ projectId, kind, broke }: { projectId: string; kind: 'new' | 'regressed'; broke: Broke }) {
  if (broke.groups === 0) return null;
  return (
    <div>
      <p>
        <strong>
          {broke.groups} {kind} error {broke.groups === 1 ? 'group' : 'groups'}
        </strong>
        : {broke.events} {broke.events === 1 ? 'event' : 'events'}, {broke.users} {broke.users === 1 ? 'user' : 'users'}
      </p>
      <ul>
        {broke.list.slice(0, TOP).map((group) => (
          <li key={group.id}>
            <Link to={`/projects/${projectId}/errors/groups/${group.id}`}>{group.title}</Link>{' '}
            <span className="muted">
              {group.events} {group.events === 1 ? 'event' : 'events'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
