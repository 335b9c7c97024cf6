/**
 * Every release's health over the last 14 days, newest first (GET /projects/{id}/release-health):
 * crash-free sessions and users, sessions, users, version checks, the change from the release
 * before; each version links to its page.
 */
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { points, releaseHealthKey } from '../api/release-health.ts';
import { Empty, QueryView } from './states.tsx';
import { DataTable } from './data-table.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { ReleaseHealthCells } from './release-health-cells.tsx';

export function ReleaseHealthTable({ projectId }: { projectId: string }) {
  const health = useApiQuery(releaseHealthKey(projectId, 14), () =>
    api.GET('/projects/{projectId}/release-health', { params: { path: { projectId }, query: { days: 14 } } }),
  );
  return (
    <section className="card stack" aria-labelledby="health-list-title">
      <h2 id="health-list-title">Health and adoption, last 14 days</h2>
      <QueryView query={health} what="release health">
        {(data) =>
          data.releases.length === 0 ? (
            <Empty>
              <p>
                No release has sessions or version checks yet. Sentry SDKs send sessions with their events once a
                release is set.
              </p>
            </Empty>
          ) : (
            <DataTable
              caption="Health of each release, newest first"
              columns={[
                'Release',
                'Crash-free sessions',
                'Crash-free users',
                'Sessions',
                'Users',
                'Version checks',
                'Change from previous',
              ]}
            >
              {data.releases.map((release) => (
                <tr key={release.version}>
                  <th scope="row">
                    <Link to={`/projects/${projectId}/releases/${encodeURIComponent(release.version)}`}>
                      {release.version}
                    </Link>
                  </th>
                  <ReleaseHealthCells release={release} />
                  <td>{points(release.comparison.crashFreeUsersChange)} users</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
    </section>
  );
}
