/**
 * The caller's projects, by team, each leading to its inbox; and a form that creates a project in a
 * team the caller administers (plan and quota only where the caller owns the team), landing on it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import { api, type Project, unwrap } from '../api/client.ts';
import type { paths } from '../api/schema.gen.ts';
import { slugify, type Team } from '../api/projects.ts';
import { useTitle } from '../use-title.ts';
import { Button, ErrorNote, Field, fieldErrors, RequireAccount } from '../ui.tsx';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import './projects.css';
import { ProjectDraftFields, useProjectDraft } from './project-fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { setAnd } from '../widgets/form-request.ts';
import { useApiQuery } from '../api/use-api-query.ts';

type NewProject = NonNullable<paths['/projects']['post']['requestBody']>['content']['application/json'];

export const PROJECTS_KEY = ['projects'] as const;
export const TEAMS_KEY = ['teams'] as const;

export default function Projects() {
  useTitle('Projects');
  return <RequireAccount>{() => <ProjectsScreen />}</RequireAccount>;
}

function ProjectsScreen() {
  const projects = useApiQuery(PROJECTS_KEY, () => api.GET('/projects'));
  const teams = useApiQuery(TEAMS_KEY, () => api.GET('/teams'));
  const [creating, setCreating] = useState(false);
  const adminTeams = (teams.data?.teams ?? []).filter((team) => team.role !== 'member');
  return (
    <section className="stack" aria-labelledby="projects-title">
      <div className="row spread">
        <h1 id="projects-title">Projects</h1>
        {adminTeams.length > 0 && !creating ? <Button onPress={() => setCreating(true)}>New project</Button> : null}
      </div>
      {creating ? <CreateProject teams={adminTeams} onCancel={() => setCreating(false)} /> : null}
      {projects.isPending || teams.isPending ? (
        <Loading what="projects" />
      ) : projects.isError ? (
        <ErrorNote error={projects.error} />
      ) : teams.isError ? (
        <ErrorNote error={teams.error} />
      ) : (
        <ProjectList projects={projects.data.projects} teams={teams.data.teams} canCreate={adminTeams.length > 0} />
      )}
    </section>
  );
}

function ProjectList({ projects, teams, canCreate }: { projects: Project[]; teams: Team[]; canCreate: boolean }) {
  if (teams.length === 0) {
    return (
      <Empty>
        <p>You are not on a team yet, and projects belong to teams.</p>
        <p>
          <Link to="/teams">Create a team</Link> first, or ask a team’s owner to invite you; then create a project in
          it.
        </p>
      </Empty>
    );
  }
  if (projects.length === 0) {
    return (
      <Empty>
        <p>No projects yet.</p>
        <p>
          {canCreate
            ? 'Create one with New project: it gets its own inbox, roadmap, changelog, board and API keys.'
            : 'Ask an admin of your team to create one, or create a team of your own on the Teams page.'}
        </p>
      </Empty>
    );
  }
  const teamName = new Map(teams.map((team) => [team.id, team.name]));
  const byTeam = new Map<string, Project[]>();
  for (const project of projects) byTeam.set(project.teamId, [...(byTeam.get(project.teamId) ?? []), project]);
  return (
    <div className="stack">
      {[...byTeam.entries()].map(([teamId, list]) => (
        <section key={teamId} className="card stack" aria-labelledby={`team-${teamId}`}>
          <h2 id={`team-${teamId}`}>
            <span className="muted">Team</span> {teamName.get(teamId) ?? teamId}
          </h2>
          <ul className="project-list">
            {list.map((project) => (
              <li key={project.id}>
                <Link to={`/projects/${project.id}/inbox`} className="project-link">
                  {project.name}
                </Link>
                <span className="muted">
                  {project.slug} · {project.role}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function CreateProject({ teams, onCancel }: { teams: Team[]; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [teamId, setTeamId] = useState(teams[0]?.id ?? '');
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const draft = useProjectDraft({ defaultLocale: 'en', locales: 'en', plan: '', quota: '' });
  const team = teams.find((candidate) => candidate.id === teamId);
  const owner = team?.role === 'owner';
  const shownSlug = slugEdited ? slug : slugify(name);

  const create = useMutation({
    mutationFn: (body: NewProject) => unwrap(api.POST('/projects', { body })),
    onSuccess: async (project) => {
      await queryClient.invalidateQueries({ queryKey: PROJECTS_KEY });
      navigate(`/projects/${project.id}/inbox`);
    },
  });
  const errors = fieldErrors(create.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const monthlyQuota = draft.checkQuota();
    if (monthlyQuota === undefined) return;
    const supportedLocales = draft.localeList();
    const defaultLocale = draft.defaultLocale.trim();
    create.mutate({
      teamId,
      name,
      ...(shownSlug ? { slug: shownSlug } : {}),
      defaultLocale,
      supportedLocales: supportedLocales.length > 0 ? supportedLocales : [defaultLocale],
      ...(owner && draft.plan.trim() ? { plan: draft.plan.trim() } : {}),
      ...(owner && monthlyQuota !== null ? { monthlyQuota } : {}),
    });
  };

  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="new-project-title">
      <h2 id="new-project-title">New project</h2>
      <SelectField
        label="Team"
        value={teamId}
        options={teams.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
        onChange={setTeamId}
        error={errors.teamId}
      />
      <Field label="Name" value={name} onChange={setName} isRequired serverError={errors.name} />
      <Field
        label="Slug"
        description="Lower-case letters, digits and -; the public board’s address is /b/<slug>"
        value={shownSlug}
        onChange={setAnd(setSlug, () => setSlugEdited(true))}
        serverError={errors.slug}
      />
      <ProjectDraftFields
        draft={draft}
        owner={owner}
        errors={errors}
        notOwner={<p className="muted">The team’s owner sets the plan and the monthly quota.</p>}
      />
      <FormActions request={create} submitLabel="Create project" busyLabel="Creating…" onCancel={onCancel} />
    </Form>
  );
}
