/**
 * The frame of a project's screens: the project's name, its sections (inbox, moderation with the
 * count of held items, people, roadmap, changelog,
 * errors, bug reports, logs, site config, translations, releases, settings, keys, webhooks, error alerts, audit log, import) and the screen.
 * The project comes from GET /projects/{id}, which also says the caller's role, so screens can
 * hide what the role cannot do (the server enforces it either way).
 */
import { useQuery } from '@tanstack/react-query';
import { NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import { api, type Project, unwrap } from './api/client.ts';
import { moderationKey } from './api/moderation.ts';
import { ErrorNote, RequireAccount } from './ui.tsx';
import { useApiQuery } from './api/use-api-query.ts';

export const projectKey = (projectId: string) => ['project', projectId] as const;

export function ProjectLayout() {
  const { projectId = '' } = useParams();
  return <RequireAccount>{() => <ProjectFrame projectId={projectId} />}</RequireAccount>;
}

function ProjectFrame({ projectId }: { projectId: string }) {
  const project = useApiQuery(projectKey(projectId), () =>
    api.GET('/projects/{projectId}', { params: { path: { projectId } } }),
  );
  // The navigation's badge: how many items wait in the moderation queue (one row read for the total).
  const held = useQuery({
    queryKey: [...moderationKey(projectId), 'count'],
    queryFn: () =>
      unwrap(api.GET('/projects/{projectId}/moderation', { params: { path: { projectId }, query: { limit: 1 } } })),
    select: (page) => page.total,
  });
  if (project.isPending) return <p className="loading">Loading…</p>;
  if (project.isError) return <ErrorNote error={project.error} />;
  const base = `/projects/${projectId}`;
  return (
    <div className="project">
      <nav aria-label="Project" className="project-nav">
        <p className="project-name">{project.data.name}</p>
        {SECTIONS.map((group) => (
          <div key={group.title} className="project-nav-group">
            <p className="project-nav-title">{group.title}</p>
            <ul>
              {group.links.map(([path, label]) => (
                <li key={path}>
                  <NavLink to={`${base}/${path}`}>
                    {label}
                    {path === 'moderation' && held.data ? (
                      <span className="nav-count">
                        {' '}
                        {held.data}
                        <span className="visually-hidden"> waiting</span>
                      </span>
                    ) : null}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className="project-screen">
        <Outlet context={project.data satisfies Project} />
      </div>
    </div>
  );
}

/** The project's sections, grouped the way a team thinks of them. */
const SECTIONS: readonly { title: string; links: readonly (readonly [path: string, label: string])[] }[] = [
  {
    title: 'Feedback',
    links: [
      ['inbox', 'Inbox'],
      ['moderation', 'Moderation'],
      ['people', 'People'],
      ['roadmap', 'Roadmap'],
      ['changelog', 'Changelog'],
    ],
  },
  {
    title: 'Operations',
    links: [
      ['errors', 'Errors'],
      ['bugs', 'Bug reports'],
      ['logs', 'Logs'],
      ['site-config', 'Site config'],
      ['translations', 'Translations'],
      ['releases', 'Releases'],
    ],
  },
  {
    title: 'Project',
    links: [
      ['settings', 'Settings'],
      ['keys', 'API keys'],
      ['webhooks', 'Webhooks'],
      ['alerts', 'Error alerts'],
      ['audit', 'Audit log'],
      ['import', 'Import'],
    ],
  },
];

/** The project of the screen being shown (inside ProjectLayout). */
export function useProject(): Project {
  return useOutletContext<Project>();
}

/** Admins and owners manage settings, keys and the changelog; members triage. */
export function canAdminister(project: Project): boolean {
  return project.role === 'admin' || project.role === 'owner';
}
