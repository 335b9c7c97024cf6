/**
 * A project's settings: name, slug, locales (admin), plan and monthly quota (owner); its public
 * board (on/off, private, title, logo, accent colour, custom domain, anonymous votes, moderation)
 * and the board's SSO secret, shown once; the follower e-mails' undo window; the project's export
 * (admins). Members see the values read-only.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, type Project, unwrap } from '../api/client.ts';
import { STATUSES, statusLabel } from '../api/features.ts';
import type { paths } from '../api/schema.gen.ts';
import { type BoardSettings, type BoardUpdate, formatDate } from '../api/projects.ts';
import { canAdminister, projectKey, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField } from '../widgets/fields.tsx';
import { ShownOnce } from '../widgets/secret.tsx';
import { QueryView } from '../widgets/states.tsx';
import './projects.css';
import { ProjectDraftFields, useProjectDraft } from './project-fields.tsx';
import { NotificationSettings } from './notification-settings.tsx';
import { ProjectExport } from './project-export.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';
import { useApiQuery } from '../api/use-api-query.ts';

const boardKey = (projectId: string) => ['project', projectId, 'board'] as const;

export default function ProjectSettings() {
  const project = useProject();
  useTitle(`Settings · ${project.name}`);
  const admin = canAdminister(project);
  return (
    <section className="stack" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      {admin ? null : <p className="muted">You are a member of this project’s team: admins and owners change these.</p>}
      {admin ? <ProjectForm project={project} /> : <ProjectFacts project={project} />}
      <BoardSection project={project} admin={admin} />
      <NotificationSettings project={project} admin={admin} />
      {admin ? <ProjectExport project={project} /> : null}
    </section>
  );
}

function ProjectFacts({ project }: { project: Project }) {
  return (
    <section className="card stack" aria-labelledby="project-facts-title">
      <h2 id="project-facts-title">Project</h2>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{project.name}</dd>
        <dt>Slug</dt>
        <dd>{project.slug}</dd>
        <dt>Default locale</dt>
        <dd>{project.defaultLocale}</dd>
        <dt>Supported locales</dt>
        <dd>{project.supportedLocales.join(', ')}</dd>
        <dt>Plan</dt>
        <dd>{project.plan || '—'}</dd>
        <dt>Monthly quota</dt>
        <dd>{project.monthlyQuota === null ? 'Unlimited' : project.monthlyQuota.toLocaleString()}</dd>
        <dt>Created</dt>
        <dd>{formatDate(project.createdAt)}</dd>
      </dl>
    </section>
  );
}

function ProjectForm({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const owner = project.role === 'owner';
  const [name, setName] = useState(project.name);
  const [slug, setSlug] = useState(project.slug);
  const draft = useProjectDraft({
    defaultLocale: project.defaultLocale,
    locales: project.supportedLocales.join(', '),
    plan: project.plan,
    quota: project.monthlyQuota === null ? '' : String(project.monthlyQuota),
  });
  const save = useMutation({
    mutationFn: (body: ProjectUpdate) => updateProject(project.id, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(projectKey(project.id), saved);
      void queryClient.invalidateQueries({ queryKey: projectKey(project.id) });
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const monthlyQuota = owner ? draft.checkQuota() : null;
    if (monthlyQuota === undefined) return;
    save.mutate({
      name,
      slug,
      defaultLocale: draft.defaultLocale.trim(),
      supportedLocales: draft.localeList(),
      ...(owner ? { plan: draft.plan.trim() || project.plan, monthlyQuota } : {}),
    });
  };
  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="project-form-title">
      <h2 id="project-form-title">Project</h2>
      <Field label="Name" value={name} onChange={setName} isRequired serverError={errors.name} />
      <Field
        label="Slug"
        description="Lower-case letters, digits and -; changing it moves the public board’s address"
        value={slug}
        onChange={setSlug}
        isRequired
        serverError={errors.slug}
      />
      <ProjectDraftFields
        draft={draft}
        owner={owner}
        errors={errors}
        notOwner={
          <dl className="facts">
            <dt>Plan</dt>
            <dd>{project.plan || '—'}</dd>
            <dt>Monthly quota</dt>
            <dd>{project.monthlyQuota === null ? 'Unlimited' : project.monthlyQuota.toLocaleString()}</dd>
          </dl>
        }
      />
      <FormActions request={save} submitLabel="Save project" busyLabel="Saving…" done="Project saved." />
    </Form>
  );
}

type ProjectUpdate = NonNullable<paths['/projects/{projectId}']['patch']['requestBody']>['content']['application/json'];

function updateProject(projectId: string, body: ProjectUpdate) {
  return unwrap(api.PATCH('/projects/{projectId}', { params: { path: { projectId } }, body }));
}

function BoardSection({ project, admin }: { project: Project; admin: boolean }) {
  const board = useApiQuery(boardKey(project.id), () =>
    api.GET('/projects/{projectId}/board', { params: { path: { projectId: project.id } } }),
  );
  return (
    <section className="card stack" aria-labelledby="board-title">
      <h2 id="board-title">Public board</h2>
      <QueryView query={board} what="the board’s settings">
        {(settings) =>
          admin ? (
            <>
              <BoardForm project={project} settings={settings} />
              <SsoSecret project={project} settings={settings} />
            </>
          ) : (
            <BoardFacts settings={settings} />
          )
        }
      </QueryView>
    </section>
  );
}

function BoardLink({ settings }: { settings: BoardSettings }) {
  if (!settings.enabled) return <p className="muted">The board is off: its address answers “not found”.</p>;
  return (
    <p>
      The board is on at{' '}
      <a href={settings.url} className="code">
        {settings.url}
      </a>
    </p>
  );
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

function BoardFacts({ settings }: { settings: BoardSettings }) {
  return (
    <>
      <BoardLink settings={settings} />
      <dl className="facts">
        <dt>On</dt>
        <dd>{yesNo(settings.enabled)}</dd>
        <dt>Private</dt>
        <dd>{yesNo(settings.private)}</dd>
        <dt>Title</dt>
        <dd>{settings.title ?? '(the project’s name)'}</dd>
        <dt>Logo</dt>
        <dd>{settings.logoUrl ?? '—'}</dd>
        <dt>Accent colour</dt>
        <dd>{settings.accentColor ?? '—'}</dd>
        <dt>Custom domain</dt>
        <dd>{settings.customDomain ?? '—'}</dd>
        <dt>Anonymous votes</dt>
        <dd>{yesNo(settings.anonymousVotes)}</dd>
        <dt>Moderation</dt>
        <dd>{yesNo(settings.moderation)}</dd>
        <dt>Ship on publish</dt>
        <dd>{yesNo(settings.shipOnPublish)}</dd>
        <dt>Roadmap columns</dt>
        <dd>{settings.roadmapColumns.map((column) => column.label ?? statusLabel(column.status)).join(', ')}</dd>
        <dt>Single sign-on</dt>
        <dd>{settings.sso.configured ? `Configured (…${settings.sso.hint ?? ''})` : 'Not configured'}</dd>
      </dl>
    </>
  );
}

/** An optional text: empty means null (cleared). */
const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

type BoardSwitch = 'enabled' | 'private' | 'anonymousVotes' | 'moderation' | 'shipOnPublish';
type BoardText = 'title' | 'logoUrl' | 'accentColor' | 'customDomain';

/** The board's on/off settings, in the form's order; `{slug}` is the project's. */
const BOARD_SWITCHES: readonly { key: BoardSwitch; label: string; description: string }[] = [
  {
    key: 'enabled',
    label: 'Board on',
    description: 'People can read, submit and vote at /b/{slug} (or your custom domain). Off: not found there.',
  },
  {
    key: 'private',
    label: 'Private',
    description: 'Only people signed in through your app (single sign-on) see the board.',
  },
  {
    key: 'anonymousVotes',
    label: 'Anonymous votes',
    description: 'Visitors vote without signing in (limited per visitor).',
  },
  {
    key: 'moderation',
    label: 'Moderation',
    description: 'New ideas and comments wait for the team’s approval before they are public.',
  },
  {
    key: 'shipOnPublish',
    label: 'Ship on publish',
    description: 'Publishing a changelog entry moves the ideas it links to Done; their followers hear of it once.',
  },
];

/** The board's optional texts (empty: cleared), in the form's order. */
const BOARD_TEXTS: Record<BoardText, FieldSpec> = {
  title: { label: 'Title', description: 'Shown in the board’s header; empty: the project’s name' },
  logoUrl: { label: 'Logo URL', description: 'An https address of an image; empty: none', type: 'url' },
  accentColor: { label: 'Accent colour', description: '#rrggbb, e.g. #2450b8; empty: the default' },
  customDomain: {
    label: 'Custom domain',
    description: 'A host name such as feedback.example.com pointed at this server; empty: none',
  },
};

function BoardForm({ project, settings }: { project: Project; settings: BoardSettings }) {
  const queryClient = useQueryClient();
  const [switches, setSwitches] = useState<Record<BoardSwitch, boolean>>(() => ({
    enabled: settings.enabled,
    private: settings.private,
    anonymousVotes: settings.anonymousVotes,
    moderation: settings.moderation,
    shipOnPublish: settings.shipOnPublish,
  }));
  const form = useFormFields(BOARD_TEXTS, {
    title: settings.title ?? '',
    logoUrl: settings.logoUrl ?? '',
    accentColor: settings.accentColor ?? '',
    customDomain: settings.customDomain ?? '',
  });
  const texts = form.values;
  const [columns, setColumns] = useState<RoadmapColumnDraft[]>(() => columnDrafts(settings));
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: BoardUpdate) =>
      unwrap(api.PATCH('/projects/{projectId}/board', { params: { path: { projectId: project.id } }, body })),
    onSuccess: (next) => {
      setSaved(true);
      queryClient.setQueryData(boardKey(project.id), next);
    },
  });
  const errors = fieldErrors(save.error);
  const field = form.bind(errors);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate({
      ...switches,
      title: orNull(texts.title),
      logoUrl: orNull(texts.logoUrl),
      accentColor: orNull(texts.accentColor),
      customDomain: orNull(texts.customDomain),
      roadmapColumns: columns
        .filter((column) => column.shown)
        .map((column) => ({ status: column.status, label: orNull(column.label) })),
    });
  };
  return (
    <Form className="stack" onSubmit={submit} aria-label="Board settings">
      <BoardLink settings={settings} />
      {saved ? <Note>Board settings saved.</Note> : null}
      {BOARD_SWITCHES.map(({ key, label, description }) => (
        <CheckboxField
          key={key}
          label={label}
          checked={switches[key]}
          onChange={(on) => setSwitches((current) => ({ ...current, [key]: on }))}
          description={description.replace('{slug}', project.slug)}
        />
      ))}
      <RoadmapColumns columns={columns} onChange={setColumns} error={errors.roadmapColumns} />
      <div className="grid-2">
        {form.names.map((key) => (
          <Field key={key} {...field(key)} />
        ))}
      </div>
      <FormActions request={save} submitLabel="Save board settings" busyLabel="Saving…" />
    </Form>
  );
}

function SsoSecret({ project, settings }: { project: Project; settings: BoardSettings }) {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = async () => {
    const made = await unwrap(
      api.POST('/projects/{projectId}/board/sso-secret', { params: { path: { projectId: project.id } } }),
    );
    setSecret(made.secret);
    await queryClient.invalidateQueries({ queryKey: boardKey(project.id) });
  };
  return (
    <section className="stack" aria-labelledby="sso-title">
      <h3 id="sso-title">Single sign-on</h3>
      <p className="muted">
        Your app signs a token (HS256) with this secret to sign its users in to the board, or to let them into a private
        board.{' '}
        {settings.sso.configured ? `A secret is set (ending …${settings.sso.hint ?? ''}).` : 'No secret is set yet.'}
      </p>
      {secret ? <ShownOnce label="Single sign-on secret" value={secret} /> : null}
      <div>
        {settings.sso.configured ? (
          <ConfirmButton
            label="Make a new secret"
            title="Replace the single sign-on secret?"
            confirmLabel="Make a new secret"
            variant="secondary"
            onConfirm={rotate}
          >
            The current secret stops working at once: your app must sign with the new one.
          </ConfirmButton>
        ) : (
          <MakeSecret onMake={rotate} />
        )}
      </div>
    </section>
  );
}

function MakeSecret({ onMake }: { onMake: () => Promise<void> }) {
  const make = useMutation({ mutationFn: onMake });
  return (
    <div className="stack">
      <div>
        <Button variant="secondary" onPress={() => make.mutate()} busy={make.isPending}>
          {make.isPending ? 'Making…' : 'Make a secret'}
        </Button>
      </div>
      {make.error ? <ErrorNote error={make.error} /> : null}
    </div>
  );
}

interface RoadmapColumnDraft {
  status: BoardSettings['roadmapColumns'][number]['status'];
  shown: boolean;
  label: string;
}

/** The configured columns first, in their order, then the other public statuses, hidden. */
function columnDrafts(settings: BoardSettings): RoadmapColumnDraft[] {
  const shown = settings.roadmapColumns.map((column) => ({
    status: column.status,
    shown: true,
    label: column.label ?? '',
  }));
  const rest = STATUSES.filter(
    (status) => status.value !== 'new' && !settings.roadmapColumns.some((column) => column.status === status.value),
  ).map((status) => ({ status: status.value as RoadmapColumnDraft['status'], shown: false, label: '' }));
  return [...shown, ...rest];
}

/** Which statuses are the board roadmap's columns, their order and labels (the REST roadmap keeps its own). */
function RoadmapColumns({
  columns,
  onChange,
  error,
}: {
  columns: RoadmapColumnDraft[];
  onChange: (columns: RoadmapColumnDraft[]) => void;
  error: string | undefined;
}) {
  const change = (index: number, next: Partial<RoadmapColumnDraft>) =>
    onChange(columns.map((column, at) => (at === index ? { ...column, ...next } : column)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...columns];
    const [column] = next.splice(index, 1);
    next.splice(index + by, 0, column!);
    onChange(next);
  };
  return (
    <fieldset className="stack">
      <legend>Roadmap columns</legend>
      <p className="muted">
        The statuses the board’s roadmap shows, in this order, with your labels (empty: the status’s name). Declined is
        hidden unless you show it. The public REST roadmap keeps its standard columns.
      </p>
      {error ? <p className="field-error">{error}</p> : null}
      <ol className="stack">
        {columns.map((column, index) => {
          const name = statusLabel(column.status);
          return (
            <li key={column.status} className="row">
              <CheckboxField
                label={`Show ${name}`}
                checked={column.shown}
                onChange={(shown) => change(index, { shown })}
              />
              <Field
                label={`Label for ${name}`}
                value={column.label}
                onChange={(label) => change(index, { label })}
                isDisabled={!column.shown}
              />
              <Button variant="quiet" isDisabled={index === 0} onPress={() => move(index, -1)}>
                Move up<span className="visually-hidden"> {name}</span>
              </Button>
              <Button variant="quiet" isDisabled={index === columns.length - 1} onPress={() => move(index, 1)}>
                Move down<span className="visually-hidden"> {name}</span>
              </Button>
            </li>
          );
        })}
      </ol>
    </fieldset>
  );
}
