/**
 * Releases as the hub (issue 33) in the dashboard: what broke and what shipped on a release's
 * page, the ideas and bugs linked to an error group (with the people who reported it and its
 * resolution in a release), and the error groups linked to an idea.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import {
  type FeatureErrorLinks,
  featureLinksKey,
  groupLinksKey,
  type ReleaseOverview,
  releaseHubKey,
  releaseOverviewKey,
  resolutionText,
} from '../api/release-hub.ts';
import { useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field } from '../ui.tsx';
import { QueryView } from './states.tsx';
import { DataTable } from './data-table.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

type Group = ReleaseOverview['broke']['new']['list'][number];

function GroupTable({ groups, caption }: { groups: Group[]; caption: string }) {
  const project = useProject();
  return (
    <DataTable caption={caption} columns={['Error', 'Status', 'Events', 'Users']}>
      {groups.map((g) => (
        <tr key={g.id}>
          <th scope="row">
            <Link to={`/projects/${project.id}/errors/groups/${g.id}`}>{g.title}</Link>
          </th>
          <td>{g.status}</td>
          <td>{g.events}</td>
          <td>{g.users}</td>
        </tr>
      ))}
    </DataTable>
  );
}

const signed = (n: number | null) => (n === null ? '–' : n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '±0');

/** What broke and what shipped in a release, for its page. */
export function ReleaseHubSections({ version, days }: { version: string; days: number }) {
  const project = useProject();
  const overview = useApiQuery(releaseOverviewKey(project.id, version, days), () =>
    api.GET('/projects/{projectId}/releases/{version}/overview', {
      params: { path: { projectId: project.id, version }, query: { days } },
    }),
  );
  return (
    <QueryView query={overview} what="what broke and shipped">
      {(data) => (
        <>
          <section className="card stack" aria-labelledby="broke-title">
            <h2 id="broke-title">What broke</h2>
            <p>
              {data.broke.new.groups} new error groups ({data.broke.new.events} events, {data.broke.new.users} users),{' '}
              {data.broke.regressed.groups} regressed. New groups compared with{' '}
              {data.comparison.previous ?? 'no earlier release'}: {signed(data.comparison.newGroupsChange)}.
            </p>
            {data.broke.new.list.length > 0 ? (
              <GroupTable groups={data.broke.new.list} caption={`Error groups new in ${data.version}`} />
            ) : null}
            {data.broke.regressed.list.length > 0 ? (
              <>
                <h3>Regressed</h3>
                <GroupTable groups={data.broke.regressed.list} caption={`Error groups regressed in ${data.version}`} />
              </>
            ) : null}
          </section>
          <section className="card stack" aria-labelledby="shipped-title">
            <h2 id="shipped-title">What shipped</h2>
            {data.shipped.items.length === 0 && data.shipped.errorGroups.length === 0 ? (
              <p className="muted">Nothing was resolved in this release.</p>
            ) : (
              <ul>
                {data.shipped.items.map((item) => (
                  <li key={item.id}>
                    <Link to={`/projects/${project.id}/inbox/${item.id}`}>{item.title}</Link> ({item.type},{' '}
                    {item.status})
                  </li>
                ))}
                {data.shipped.errorGroups.map((g) => (
                  <li key={g.id}>
                    Fixed: <Link to={`/projects/${project.id}/errors/groups/${g.id}`}>{g.title}</Link>
                  </li>
                ))}
              </ul>
            )}
            {data.shipped.changelogEntry ? (
              <p>
                Changelog:{' '}
                <Link to={`/projects/${project.id}/changelog/${data.shipped.changelogEntry.id}`}>
                  {data.shipped.changelogEntry.summary}
                </Link>{' '}
                {data.shipped.changelogEntry.published ? '(published)' : '(draft, to edit and publish)'}
              </p>
            ) : null}
          </section>
        </>
      )}
    </QueryView>
  );
}

/** An error group's linked ideas and bugs, its reporters and its resolution in a release. */
export function ErrorGroupLinks({ groupId, admin }: { groupId: string; admin: boolean }) {
  const project = useProject();
  const queryClient = useQueryClient();
  const [featureId, setFeatureId] = useState('');
  const [release, setRelease] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const links = useApiQuery(groupLinksKey(project.id, groupId), () =>
    api.GET('/projects/{projectId}/error-groups/{groupId}/links', {
      params: { path: { projectId: project.id, groupId } },
    }),
  );
  const run = async (write: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await write();
      await queryClient.invalidateQueries({ queryKey: releaseHubKey(project.id) });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const params = { path: { projectId: project.id, groupId } };
  return (
    <section className="card stack" aria-labelledby="links-title">
      <h2 id="links-title">Linked ideas and bugs</h2>
      <QueryView query={links} what="the links">
        {(data) => (
          <>
            {data.items.length === 0 ? (
              <p className="muted">No idea or bug is linked to this group.</p>
            ) : (
              <ul>
                {data.items.map((item) => (
                  <li key={item.id}>
                    <Link to={`/projects/${project.id}/inbox/${item.id}`}>{item.title}</Link> ({item.type},{' '}
                    {item.status}
                    {item.source === 'manual' ? '' : `, linked by ${item.source}`}){' '}
                    {admin ? (
                      <Button
                        variant="quiet"
                        busy={busy}
                        aria-label={`Unlink ${item.title}`}
                        onPress={() =>
                          run(() =>
                            unwrap(
                              api.DELETE('/projects/{projectId}/error-groups/{groupId}/links/{featureId}', {
                                params: { path: { projectId: project.id, groupId, featureId: item.id } },
                              }),
                            ),
                          )
                        }
                      >
                        Unlink
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
            <p>
              Reported by{' '}
              {data.reporters.length === 0
                ? 'no one yet'
                : data.reporters.map((r) => r.name ?? r.email ?? 'someone').join(', ')}
              .
            </p>
            <p>{resolutionText(data.resolution)}</p>
          </>
        )}
      </QueryView>
      {admin ? (
        <div className="row">
          <Field label="Idea or bug id" value={featureId} onChange={setFeatureId} />
          <Button
            variant="secondary"
            busy={busy}
            isDisabled={featureId.trim() === ''}
            onPress={() =>
              run(async () => {
                await unwrap(
                  api.POST('/projects/{projectId}/error-groups/{groupId}/links', {
                    params,
                    body: { featureId: featureId.trim() },
                  }),
                );
                setFeatureId('');
              })
            }
          >
            Link
          </Button>
          <Field label="Release (empty: the next one)" value={release} onChange={setRelease} />
          <Button
            variant="secondary"
            busy={busy}
            onPress={() =>
              run(() =>
                unwrap(
                  api.PUT('/projects/{projectId}/error-groups/{groupId}/resolution', {
                    params,
                    body: release.trim() ? { release: release.trim() } : {},
                  }),
                ),
              )
            }
          >
            Resolve in release
          </Button>
        </div>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}

/** The error groups linked to an idea or bug, with their events and users. */
export function FeatureErrorLinksSection({ featureId }: { featureId: string }) {
  const project = useProject();
  const links = useApiQuery(featureLinksKey(project.id, featureId), () =>
    api.GET('/projects/{projectId}/features/{featureId}/error-links', {
      params: { path: { projectId: project.id, featureId } },
    }),
  );
  return (
    <section className="card stack" aria-labelledby="error-links-title">
      <h2 id="error-links-title">Linked errors</h2>
      <QueryView query={links} what="the linked errors">
        {(data: FeatureErrorLinks) =>
          data.groups.length === 0 ? (
            <p className="muted">No error group is linked.</p>
          ) : (
            <>
              <p>
                {data.events} events, {data.users} users. {resolutionText(data.resolution)}
              </p>
              <GroupTable groups={data.groups} caption="Linked error groups" />
            </>
          )
        }
      </QueryView>
    </section>
  );
}
