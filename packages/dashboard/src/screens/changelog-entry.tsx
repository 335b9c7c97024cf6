/**
 * One changelog entry, new or existing: summary, a rich-text description (TipTap), the idea it
 * tells about (or, standalone, its own status), and what happens to it: save as a draft, publish
 * now, schedule a publish time (entered in the reader's time zone, sent as ISO), cancel the
 * schedule, unpublish, delete. The preview asks the server to sanitise the description as it
 * would on save and shows that HTML the way the board's changelog does: never the editor's own
 * HTML. A failed action keeps everything typed, with the server's reason in place.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import {
  type Entry,
  formatTime,
  STANDALONE_LABELS,
  type StandaloneStatus,
  STATE_LABELS,
  timeZone,
} from '../api/changelog.ts';
import { api, type Project, unwrap } from '../api/client.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField, SelectField } from '../widgets/fields.tsx';
import { IdeaPicker, type LinkedIdea } from '../widgets/idea-picker.tsx';
import { RichTextEditor } from '../widgets/rich-text.tsx';
import { QueryView } from '../widgets/states.tsx';
import './changelog.css';
import { useApiQuery } from '../api/use-api-query.ts';

const entryKey = (projectId: string, entryId: string) => ['changelog-entry', projectId, entryId] as const;

const STANDALONE_OPTIONS = (Object.keys(STANDALONE_LABELS) as StandaloneStatus[]).map((value) => ({
  value,
  label: STANDALONE_LABELS[value],
}));

export default function ChangelogEntry() {
  const { entryId } = useParams();
  const project = useProject();
  useTitle(entryId ? 'Changelog entry' : 'New changelog entry');
  if (!entryId) return <EntryForm key="new" project={project} entry={null} />;
  return <LoadedEntry key={entryId} project={project} entryId={entryId} />;
}

function LoadedEntry({ project, entryId }: { project: Project; entryId: string }) {
  const entry = useApiQuery(entryKey(project.id, entryId), () =>
    api.GET('/projects/{projectId}/changelog/{entryId}', { params: { path: { projectId: project.id, entryId } } }),
  );
  return (
    <QueryView query={entry} what="the entry">
      {(data) => <EntryForm project={project} entry={data} />}
    </QueryView>
  );
}

/** `2026-11-24T15:04:05` in the reader's time zone, for a datetime-local input. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}:${pad(date.getSeconds())}`;
}

interface Draft {
  summary: string;
  description: string;
  featureIds: string[];
  statusKey?: StandaloneStatus;
  announcement: boolean;
}

function EntryForm({ project, entry }: { project: Project; entry: Entry | null }) {
  const projectId = project.id;
  const base = `/projects/${projectId}/changelog`;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const editable = canAdminister(project);

  const [summary, setSummary] = useState(entry?.summary ?? '');
  const [description, setDescription] = useState(entry?.description ?? '');
  const [ideas, setIdeas] = useState<LinkedIdea[]>(
    entry?.features.map((feature) => ({ id: feature.id, title: feature.title })) ?? [],
  );
  const idea = ideas[0] ?? null;
  const [statusKey, setStatusKey] = useState<StandaloneStatus>(
    entry && !entry.featureId && entry.statusKey in STANDALONE_LABELS ? (entry.statusKey as StandaloneStatus) : 'new',
  );
  const [announcement, setAnnouncement] = useState(entry?.announcement ?? false);
  const [publishAt, setPublishAt] = useState(entry?.publishAt ? toLocalInput(entry.publishAt) : '');
  const [done, setDone] = useState<string>((location.state as { done?: string } | null)?.done ?? '');

  const fields = (): Draft => ({
    summary: summary.trim(),
    description,
    featureIds: ideas.map((linked) => linked.id),
    ...(idea ? {} : { statusKey }),
    announcement,
  });

  const stored = (updated: Entry) => {
    queryClient.setQueryData(entryKey(projectId, updated.id), updated);
    void queryClient.invalidateQueries({ queryKey: ['changelog', projectId] });
  };

  const action = useMutation({
    mutationFn: async (
      kind: 'save' | 'publish' | 'schedule' | 'cancel-schedule' | 'unpublish',
    ): Promise<{ entry: Entry; message: string }> => {
      const path = { projectId };
      if (kind === 'schedule') {
        const time = new Date(publishAt);
        if (!publishAt || Number.isNaN(time.getTime())) throw new Error('Choose the date and time to publish at');
      }
      const scheduleIso = kind === 'schedule' ? new Date(publishAt).toISOString() : undefined;
      if (!entry) {
        const created = await unwrap(
          api.POST('/projects/{projectId}/changelog', {
            params: { path },
            body: {
              ...fields(),
              ...(kind === 'publish' ? { published: true } : {}),
              ...(scheduleIso ? { publishAt: scheduleIso } : {}),
            },
          }),
        );
        return { entry: created, message: messageFor(kind, created) };
      }
      const entryPath = { projectId, entryId: entry.id };
      if (kind === 'cancel-schedule' || kind === 'unpublish') {
        const updated =
          kind === 'unpublish'
            ? await unwrap(
                api.POST('/projects/{projectId}/changelog/{entryId}/unpublish', { params: { path: entryPath } }),
              )
            : await unwrap(
                api.PATCH('/projects/{projectId}/changelog/{entryId}', {
                  params: { path: entryPath },
                  body: { publishAt: null },
                }),
              );
        return { entry: updated, message: messageFor(kind, updated) };
      }
      let updated = await unwrap(
        api.PATCH('/projects/{projectId}/changelog/{entryId}', {
          params: { path: entryPath },
          body: { ...fields(), ...(scheduleIso ? { publishAt: scheduleIso } : {}) },
        }),
      );
      if (kind === 'publish') {
        stored(updated);
        updated = await unwrap(
          api.POST('/projects/{projectId}/changelog/{entryId}/publish', { params: { path: entryPath } }),
        );
      }
      return { entry: updated, message: messageFor(kind, updated) };
    },
    onMutate: () => setDone(''),
    onSuccess: ({ entry: updated, message }) => {
      stored(updated);
      if (!entry) {
        navigate(`${base}/${updated.id}`, { replace: true, state: { done: message } });
        return;
      }
      if (updated.publishAt) setPublishAt(toLocalInput(updated.publishAt));
      setDone(message);
    },
  });

  const remove = async () => {
    if (!entry) return;
    await unwrap(
      api.DELETE('/projects/{projectId}/changelog/{entryId}', { params: { path: { projectId, entryId: entry.id } } }),
    );
    queryClient.removeQueries({ queryKey: entryKey(projectId, entry.id) });
    await queryClient.invalidateQueries({ queryKey: ['changelog', projectId] });
    navigate(base, { replace: true });
  };

  const errors = fieldErrors(action.error);
  const busy = action.isPending;
  const state = entry?.state ?? 'draft';
  const heading = entry ? 'Edit changelog entry' : 'New changelog entry';

  if (!editable) return <ReadOnlyEntry entry={entry} />;

  return (
    <div className="stack entry-screen">
      <h1>{heading}</h1>
      {entry ? <EntryStatus entry={entry} /> : <p className="muted">A new entry starts as a draft.</p>}
      <form
        className="stack card"
        aria-label={heading}
        onSubmit={(event) => {
          event.preventDefault();
          action.mutate('save');
        }}
      >
        <Field
          label="Summary"
          value={summary}
          onChange={setSummary}
          isRequired
          maxLength={200}
          serverError={errors['summary']}
          description="One line: what changed, as readers see it in the changelog."
        />
        <RichTextEditor
          label="Description"
          initialHtml={entry?.description ?? ''}
          onChange={setDescription}
          description="Bold, italic, headings, lists, code and links. The server removes anything else (scripts, styles) when it stores the entry; the preview shows what stays."
        />
        {errors['description'] ? <p className="field-error">{errors['description']}</p> : null}
        <IdeaPicker
          projectId={projectId}
          ideas={ideas}
          onChange={setIdeas}
          error={errors['featureIds'] ?? errors['featureId']}
        />
        {idea ? null : (
          <SelectField
            label="Status"
            value={statusKey}
            options={STANDALONE_OPTIONS}
            onChange={setStatusKey}
            description="An entry without a linked idea shows this status; a linked one shows its idea's status."
          />
        )}
        <CheckboxField
          label="Announcement"
          name="announcement"
          checked={announcement}
          onChange={setAnnouncement}
          description="“What's new” in your app opens this entry once as a popup for each reader who has not seen it."
        />
        <div className="row">
          <Button type="submit" variant="primary" busy={busy && action.variables === 'save'}>
            {state === 'published' ? 'Save changes' : 'Save draft'}
          </Button>
          {state !== 'published' ? (
            <Button
              variant="secondary"
              onPress={() => action.mutate('publish')}
              busy={busy && action.variables === 'publish'}
            >
              Publish now
            </Button>
          ) : (
            <Button
              variant="secondary"
              onPress={() => action.mutate('unpublish')}
              busy={busy && action.variables === 'unpublish'}
            >
              Unpublish
            </Button>
          )}
        </div>
        {state !== 'published' ? (
          <ScheduleControls
            value={publishAt}
            onChange={setPublishAt}
            scheduled={state === 'scheduled'}
            error={errors['publishAt']}
            busy={busy}
            onSchedule={() => action.mutate('schedule')}
            onCancel={() => action.mutate('cancel-schedule')}
          />
        ) : null}
        {action.isError ? <ErrorNote error={action.error} /> : null}
        {done ? <Note>{done}</Note> : null}
      </form>
      <Preview projectId={projectId} summary={summary} description={description} ideas={ideas} statusKey={statusKey} />
      {entry ? (
        <div className="row">
          <ConfirmButton
            label="Delete entry"
            title="Delete this entry?"
            confirmLabel="Delete"
            variant="danger"
            onConfirm={remove}
          >
            <p>
              “{entry.summary}” is removed from the dashboard{entry.published ? ' and from the public changelog' : ''}.
              This cannot be undone.
            </p>
          </ConfirmButton>
        </div>
      ) : null}
    </div>
  );
}

function messageFor(kind: string, entry: Entry): string {
  if (kind === 'publish') return 'Published: the entry is on the public changelog.';
  if (kind === 'unpublish') return 'Unpublished: the entry is a draft again.';
  if (kind === 'cancel-schedule') return 'Schedule cancelled: the entry is a draft.';
  if (kind === 'schedule' && entry.publishAt) return `Scheduled for ${formatTime(entry.publishAt)}.`;
  return entry.state === 'published' ? 'Changes saved.' : 'Draft saved.';
}

function EntryStatus({ entry }: { entry: Entry }) {
  return (
    <p className="entry-status">
      <span className={`state state-${entry.state}`}>{STATE_LABELS[entry.state]}</span>
      {entry.state === 'scheduled' && entry.publishAt ? (
        <>
          {' '}
          · publishes <time dateTime={entry.publishAt}>{formatTime(entry.publishAt)}</time>
        </>
      ) : null}
      {entry.state === 'published' && entry.publishedAt ? (
        <>
          {' '}
          · <time dateTime={entry.publishedAt}>{formatTime(entry.publishedAt)}</time>
        </>
      ) : null}
    </p>
  );
}

function ScheduleControls({
  value,
  onChange,
  scheduled,
  error,
  busy,
  onSchedule,
  onCancel,
}: {
  value: string;
  onChange: (value: string) => void;
  scheduled: boolean;
  error: string | undefined;
  busy: boolean;
  onSchedule: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  return (
    <fieldset className="schedule">
      <legend>Schedule</legend>
      <div className="row schedule-row">
        <div className="field">
          <label htmlFor={id}>Publish at</label>
          <input
            id={id}
            type="datetime-local"
            step={1}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-help`}
          />
        </div>
        <Button variant="secondary" onPress={onSchedule} busy={busy}>
          {scheduled ? 'Reschedule' : 'Schedule'}
        </Button>
        {scheduled ? (
          <Button variant="quiet" onPress={onCancel} busy={busy}>
            Cancel schedule
          </Button>
        ) : null}
      </div>
      <span id={`${id}-help`} className={error ? 'field-error' : 'field-help'}>
        {error ?? `Your time zone: ${timeZone()}. The server publishes the entry at this time.`}
      </span>
    </fieldset>
  );
}

/**
 * The entry as the board's changelog shows it, with the description as the server would store it
 * (sanitised by the server's preview endpoint as the description changes: never the editor's HTML).
 */
function Preview({
  projectId,
  summary,
  description,
  ideas,
  statusKey,
}: {
  projectId: string;
  summary: string;
  description: string;
  ideas: LinkedIdea[];
  statusKey: StandaloneStatus;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(description);
  useEffect(() => {
    const timer = setTimeout(() => setPending(description), 400);
    return () => clearTimeout(timer);
  }, [description]);
  const preview = useApiQuery(
    ['changelog-preview', projectId, pending],
    () =>
      api.POST('/projects/{projectId}/changelog/preview', {
        params: { path: { projectId } },
        body: { description: pending },
      }),
    { enabled: open },
  );
  return (
    <section className="stack preview" aria-labelledby="preview-heading">
      <div className="row heading-row">
        <h2 id="preview-heading">Preview as the board shows it</h2>
        <Button variant="secondary" onPress={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Hide preview' : 'Show preview'}
        </Button>
      </div>
      {open ? (
        <div className="board-preview">
          {preview.isPending ? (
            <p className="muted" role="status">
              Sanitising on the server…
            </p>
          ) : preview.isError ? (
            <ErrorNote error={preview.error} />
          ) : (
            <article className="board-entry">
              <h3>{summary || 'Summary'}</h3>
              <div className="board-meta">
                <span className="board-badge">{ideas.length > 0 ? 'Idea’s status' : STANDALONE_LABELS[statusKey]}</span>
                <span>{formatTime(new Date().toISOString())}</span>
              </div>
              <div
                className="board-content"
                data-testid="preview-content"
                // The server's sanitised HTML, exactly what it stores and the board shows.
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (changelog/sanitize.ts)
                dangerouslySetInnerHTML={{ __html: preview.data.description }}
              />
              {ideas.length > 0 ? <p>Ideas: {ideas.map((linked) => linked.title).join(', ')}</p> : null}
            </article>
          )}
        </div>
      ) : null}
    </section>
  );
}

/** A member's view: the entry as stored, without the controls only admins and owners may use. */
function ReadOnlyEntry({ entry }: { entry: Entry | null }) {
  if (!entry)
    return (
      <div className="stack">
        <h1>New changelog entry</h1>
        <p>Only admins and owners of the team write the changelog.</p>
      </div>
    );
  return (
    <div className="stack">
      <h1>{entry.summary}</h1>
      <EntryStatus entry={entry} />
      <p className="muted">Only admins and owners of the team edit the changelog.</p>
      <article className="board-entry card">
        <div
          className="board-content"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: stored descriptions are sanitised by the server
          dangerouslySetInnerHTML={{ __html: entry.description }}
        />
        {entry.features.length > 0 ? <p>Ideas: {entry.features.map((feature) => feature.title).join(', ')}</p> : null}
      </article>
    </div>
  );
}
