/**
 * The frame of a project's screens: the project's name, its sections (inbox, roadmap, changelog,
 * errors, bug reports, logs, site config, translations, releases, settings, keys) and the screen. The project comes from GET /projects/{id}, which also says the
 * caller's role, so screens can hide what the role cannot do (the server enforces it either way).
 */
import { useQuery } from '@tanstack/react-query';
import { NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import { api, type Project, unwrap } from './api/client.ts';
import { ErrorNote, RequireAccount } from './ui.tsx';

export const projectKey = (projectId: string) => ['project', projectId] as const;

export function ProjectLayout() {
  const { projectId = '' } = useParams();
  return <RequireAccount>{() => <ProjectFrame projectId={projectId} />}</RequireAccount>;
}

function ProjectFrame({ projectId }: { projectId: string }) {
  const project = useQuery({
    queryKey: projectKey(projectId),
    queryFn: () => unwrap(api.GET('/projects/{projectId}', { params: { path: { projectId } } })),
  });
  if (project.isPending) return <p className="loading">Loading…</p>;
  if (project.isError) return <ErrorNote error={project.error} />;
  const base = `/projects/${projectId}`;
  return (
    <div className="project">
      <div className="project-head">
        <p className="project-name">{project.data.name}</p>
        <nav aria-label="Project" className="project-nav">
          <NavLink to={`${base}/inbox`}>Inbox</NavLink>
          <NavLink to={`${base}/roadmap`}>Roadmap</NavLink>
          <NavLink to={`${base}/changelog`}>Changelog</NavLink>
          <NavLink to={`${base}/errors`}>Errors</NavLink>
          <NavLink to={`${base}/bugs`}>Bug reports</NavLink>
          <NavLink to={`${base}/logs`}>Logs</NavLink>
          <NavLink to={`${base}/site-config`}>Site config</NavLink>
          <NavLink to={`${base}/translations`}>Translations</NavLink>
          <NavLink to={`${base}/releases`}>Releases</NavLink>
          <NavLink to={`${base}/settings`}>Settings</NavLink>
          <NavLink to={`${base}/keys`}>API keys</NavLink>
        </nav>
      </div>
      <Outlet context={project.data satisfies Project} />
    </div>
  );
}

/** The project of the screen being shown (inside ProjectLayout). */
export function useProject(): Project {
  return useOutletContext<Project>();
}

/** Admins and owners manage settings, keys and the changelog; members triage. */
export function canAdminister(project: Project): boolean {
  return project.role === 'admin' || project.role === 'owner';
}
