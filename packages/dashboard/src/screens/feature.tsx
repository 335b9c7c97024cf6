/**
 * One idea as the team triages it: what was submitted, its status, visibility and developer notes,
 * its tags, voters, comments (hide, show, delete), linked bug reports, merging it into another idea
 * (similar ones suggested, or searched), and deleting it. Admins change things; members read.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError, api, unwrap } from '../api/client.ts';
import {
  type FeatureStatus,
  featureKey,
  featuresKey,
  type ManagedFeature,
  STATUSES,
  statusLabel,
  type Tag,
  tagsKey,
  when,
} from '../api/features.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField, SelectField, TextAreaField } from '../widgets/fields.tsx';
import { Empty, Loading, QueryView } from '../widgets/states.tsx';
import './inbox.css';
import './feature.css';
import { Comments, Voters } from './feature-people.tsx';
import { ReportContext } from '../widgets/report-context.tsx';
import { FeatureErrorLinksSection } from '../widgets/release-hub.tsx';

type Nav = { inboxSearch?: string; note?: string } | null;

export default function FeaturePage() {
  const project = useProject();
  const { featureId = '' } = useParams();
  const location = useLocation();
  const state = location.state as Nav;
  const inbox = `/projects/${project.id}/inbox${state?.inboxSearch ?? ''}`;
  const feature = useQuery({
    queryKey: featureKey(project.id, featureId),
    queryFn: () =>
      unwrap(
        api.GET('/projects/{projectId}/features/{featureId}', {
          params: { path: { projectId: project.id, featureId } },
        }),
      ),
  });
  useTitle(feature.data?.title ?? 'Idea');
  return (
    <div className="feature stack">
      <p>
        <Link to={inbox}>← Back to the inbox</Link>
      </p>
      {feature.isPending ? (
        <Loading what="the idea" />
      ) : feature.isError ? (
        feature.error instanceof ApiError && feature.error.status === 404 ? (
          <>
            <h1>Idea not found</h1>
            <Empty>
              <p>This idea does not exist in this project: it may have been merged into another or deleted.</p>
            </Empty>
          </>
        ) : (
          <>
            <h1>Idea</h1>
            <ErrorNote error={feature.error} />
          </>
        )
      ) : (
        <FeatureView key={feature.data.id} feature={feature.data} note={state?.note} inbox={inbox} />
      )}
    </div>
  );
}

function FeatureView({ feature, note, inbox }: { feature: ManagedFeature; note?: string | undefined; inbox: string }) {
  const project = useProject();
  const admin = canAdminister(project);
  const board = useQuery({
    queryKey: ['board', project.id],
    queryFn: () => unwrap(api.GET('/projects/{projectId}/board', { params: { path: { projectId: project.id } } })),
  });
  const boardLink =
    board.data?.enabled && !feature.internal && feature.environment === 'live'
      ? `${board.data.url.replace(/\/$/, '')}/ideas/${feature.id}`
      : null;
  return (
    <>
      <header className="stack feature-head">
        <h1>{feature.title}</h1>
        <p className="row muted">
          <span>{feature.type === 'bug' ? 'Bug' : 'Feature request'}</span>
          <span aria-hidden="true">·</span>
          <span>
            Submitted <time dateTime={feature.createdAt}>{when(feature.createdAt)}</time>
            {feature.contactEmail ? ` by ${feature.contactEmail}` : ''}
            {feature.channel ? ` through the ${feature.channel}` : ''}
          </span>
          <span aria-hidden="true">·</span>
          <span>
            {feature.voteCount === 1 ? '1 vote' : `${feature.voteCount} votes`},{' '}
            {feature.commentCount === 1 ? '1 comment' : `${feature.commentCount} comments`}
          </span>
        </p>
        <p className="row">
          <span className={`badge badge-muted status status-${feature.status}`}>{statusLabel(feature.status)}</span>
          {feature.internal ? <span className="badge badge-warn">Internal</span> : null}
          {feature.environment === 'test' ? <span className="badge badge-muted">Test key</span> : null}
          {boardLink ? <a href={boardLink}>View on the public board</a> : null}
        </p>
        <MarkTriaged feature={feature} admin={admin} />
        {note ? <Note>{note}</Note> : null}
      </header>
      <section className="card stack" aria-labelledby="description-title">
        <h2 id="description-title">Description</h2>
        <p className="feature-description">{feature.description}</p>
      </section>
      <ReportContext feature={feature} />
      {feature.statusResponse ? (
        <section className="card stack" aria-labelledby="response-title">
          <h2 id="response-title">Official response</h2>
          <p className="feature-description">{feature.statusResponse}</p>
        </section>
      ) : null}
      <Triage feature={feature} admin={admin} />
      <Tags feature={feature} admin={admin} />
      <Voters feature={feature} admin={admin} />
      <Comments feature={feature} admin={admin} />
      <LinkedBugs feature={feature} />
      <FeatureErrorLinksSection featureId={feature.id} />
      {admin ? <Merge feature={feature} /> : null}
      {admin ? <Delete feature={feature} inbox={inbox} /> : null}
    </>
  );
}

/**
 * An idea nobody has acted on yet says so, with a button to mark it triaged (looked at) without
 * changing it (admins; members see the badge only); a status change or an edit triages it too.
 */
function MarkTriaged({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const queryClient = useQueryClient();
  const mark = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/features/triage', {
          params: { path: { projectId: feature.projectId } },
          body: { ids: [feature.id] },
        }),
      ),
    onSuccess: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: ['me', 'attention'] });
    },
  });
  if (feature.triagedAt !== null) return null;
  return (
    <div className="row">
      <span className="badge badge-warn">Needs triage</span>
      {admin ? (
        <Button variant="secondary" busy={mark.isPending} onPress={() => mark.mutate()}>
          Mark triaged
        </Button>
      ) : null}
      {mark.isError ? <ErrorNote error={mark.error} /> : null}
    </div>
  );
}

/** After a change: the idea's page and the inbox show it. */
function useRefresh(feature: ManagedFeature) {
  const queryClient = useQueryClient();
  return (changed?: ManagedFeature) => {
    if (changed) queryClient.setQueryData(featureKey(feature.projectId, feature.id), changed);
    else void queryClient.invalidateQueries({ queryKey: featureKey(feature.projectId, feature.id) });
    void queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
  };
}

function Triage({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const [status, setStatus] = useState<FeatureStatus>(feature.status);
  const [internal, setInternal] = useState(feature.internal);
  const [notes, setNotes] = useState(feature.developerNotes ?? '');
  const [response, setResponse] = useState('');
  const [notify, setNotify] = useState(true);
  const [saved, setSaved] = useState('');
  const statusChanged = status !== feature.status;
  const changes = {
    ...(statusChanged ? { status, notify, ...(response.trim() ? { response: response.trim() } : {}) } : {}),
    ...(internal !== feature.internal ? { internal } : {}),
    ...(notes !== (feature.developerNotes ?? '') ? { developerNotes: notes.trim() ? notes : null } : {}),
  };
  const dirty = Object.keys(changes).length > 0;
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/projects/{projectId}/features/{featureId}', {
          params: { path: { projectId: feature.projectId, featureId: feature.id } },
          body: changes,
        }),
      ),
    onSuccess: (changed) => {
      const said: string[] = [];
      if ('status' in changes) said.push(`status ${statusLabel(changed.status)}`);
      if ('internal' in changes) said.push(changed.internal ? 'internal' : 'public');
      if ('developerNotes' in changes) said.push('developer notes');
      const told =
        'status' in changes
          ? changes.notify
            ? ' Followers are told once the undo window ends.'
            : ' Followers are not told.'
          : '';
      setSaved(`Saved: ${said.join(', ')}.${told}`);
      setResponse('');
      setNotify(true);
      refresh(changed);
    },
  });
  const errors = fieldErrors(save.error);
  if (!admin) {
    return (
      <section className="card stack" aria-labelledby="triage-title">
        <h2 id="triage-title">Triage</h2>
        <dl className="facts">
          <dt>Status</dt>
          <dd>{statusLabel(feature.status)}</dd>
          <dt>Visibility</dt>
          <dd>{feature.internal ? 'Internal: hidden from the board and the public API' : 'Public'}</dd>
          <dt>Developer notes</dt>
          <dd className="feature-notes">{feature.developerNotes || '(none)'}</dd>
        </dl>
        <p className="muted">Only admins and owners change ideas.</p>
      </section>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    if (dirty) save.mutate();
  };
  return (
    <section className="card" aria-labelledby="triage-title">
      <form className="stack" onSubmit={submit}>
        <h2 id="triage-title">Triage</h2>
        <SelectField
          label="Status"
          name="status"
          value={status}
          options={STATUSES}
          error={errors['status']}
          description="Followers of the idea get an e-mail when its status changes (unless you choose otherwise below)."
          onChange={(value) => {
            setSaved('');
            setStatus(value);
          }}
        />
        {statusChanged ? (
          <>
            <TextAreaField
              label="Official response"
              name="response"
              rows={3}
              value={response}
              error={errors['response']}
              description="Optional: shown on the idea on the board and in the followers’ e-mail, as the team’s."
              onChange={(value) => {
                setSaved('');
                setResponse(value);
              }}
            />
            <CheckboxField
              label="Notify followers"
              name="notify"
              checked={notify}
              description="The e-mail waits for the project’s undo window; changing back within it sends nothing."
              onChange={(value) => {
                setSaved('');
                setNotify(value);
              }}
            />
          </>
        ) : null}
        <CheckboxField
          label="Internal"
          name="internal"
          checked={internal}
          description="Hidden from the board, the feeds and the public API."
          onChange={(value) => {
            setSaved('');
            setInternal(value);
          }}
        />
        <TextAreaField
          label="Developer notes"
          name="developerNotes"
          rows={5}
          value={notes}
          error={errors['developerNotes']}
          description="For the team: never shown on the board."
          onChange={(value) => {
            setSaved('');
            setNotes(value);
          }}
        />
        <div className="row">
          <Button type="submit" busy={save.isPending} isDisabled={!dirty && !save.isPending}>
            {save.isPending ? 'Saving…' : 'Save changes'}
          </Button>
          {dirty ? <span className="muted">Unsaved changes</span> : null}
        </div>
        {save.error ? <ErrorNote error={save.error} /> : null}
        {saved && !dirty ? <Note>{saved}</Note> : null}
      </form>
    </section>
  );
}

function Tags({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const queryClient = useQueryClient();
  const tags = useQuery({
    queryKey: tagsKey(feature.projectId),
    queryFn: () =>
      unwrap(api.GET('/projects/{projectId}/tags', { params: { path: { projectId: feature.projectId } } })),
  });
  const [saved, setSaved] = useState('');
  const [name, setName] = useState('');
  const savedIds = feature.tags.map((tag) => tag.id);
  const savedKey = savedIds.join(',');
  // What the boxes show: the change at once, the saved tags again if the server refuses it.
  const [current, setCurrent] = useState<string[]>(savedIds);
  useEffect(() => setCurrent(savedKey ? savedKey.split(',') : []), [savedKey]);
  const put = (tagIds: string[]) =>
    unwrap(
      api.PUT('/projects/{projectId}/features/{featureId}/tags', {
        params: { path: { projectId: feature.projectId, featureId: feature.id } },
        body: { tagIds },
      }),
    );
  const setTags = useMutation({
    mutationFn: ({ tagIds }: { tagIds: string[]; said: string }) => put(tagIds),
    onSuccess: (_data, { said }) => {
      setSaved(said);
      refresh();
    },
    onError: () => setCurrent(savedKey ? savedKey.split(',') : []),
  });
  const create = useMutation({
    mutationFn: async () => {
      const tag = await unwrap(
        api.POST('/projects/{projectId}/tags', {
          params: { path: { projectId: feature.projectId } },
          body: { name: name.trim() },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: tagsKey(feature.projectId) });
      await put([...current, tag.id]);
      return tag;
    },
    onSuccess: (tag) => {
      setSaved(`Tag ${tag.name} created and added.`);
      setName('');
      refresh();
    },
  });
  const toggle = (tag: Tag, on: boolean) => {
    setSaved('');
    const tagIds = on ? [...current, tag.id] : current.filter((id) => id !== tag.id);
    setCurrent(tagIds);
    setTags.mutate({
      tagIds,
      said: on ? `Tag ${tag.name} added.` : `Tag ${tag.name} removed.`,
    });
  };
  const submitNew = (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    if (name.trim()) create.mutate();
  };
  return (
    <section className="card stack" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      {!admin ? (
        feature.tags.length === 0 ? (
          <p className="muted">No tags.</p>
        ) : (
          <ul className="tag-list" aria-label="Tags">
            {feature.tags.map((tag) => (
              <li key={tag.id} className="tag-chip">
                {tag.name}
              </li>
            ))}
          </ul>
        )
      ) : (
        <QueryView query={tags} what="tags">
          {(data) => (
            <fieldset className="feature-tags" aria-describedby="tags-help" disabled={setTags.isPending}>
              <legend className="visually-hidden">Tags of this idea</legend>
              {data.tags.length === 0 ? (
                <p id="tags-help" className="muted">
                  The project has no tags yet: create the first one below.
                </p>
              ) : (
                <p id="tags-help" className="muted">
                  Checked tags show on the idea on the board and filter the inbox. A change is saved at once.
                </p>
              )}
              <div className="feature-tag-boxes">
                {data.tags.map((tag) => (
                  <CheckboxField
                    key={tag.id}
                    label={tag.name}
                    checked={current.includes(tag.id)}
                    onChange={(on) => toggle(tag, on)}
                  />
                ))}
              </div>
            </fieldset>
          )}
        </QueryView>
      )}
      {admin ? (
        <form className="row feature-new-tag" onSubmit={submitNew}>
          <Field
            label="New tag"
            value={name}
            onChange={(value) => {
              create.reset();
              setName(value);
            }}
            serverError={fieldErrors(create.error)['name']}
          />
          <Button type="submit" variant="secondary" busy={create.isPending} isDisabled={!name.trim()}>
            Create and add
          </Button>
        </form>
      ) : null}
      {setTags.error ? <ErrorNote error={setTags.error} /> : null}
      {create.error && !fieldErrors(create.error)['name'] ? <ErrorNote error={create.error} /> : null}
      {saved ? <Note>{saved}</Note> : null}
    </section>
  );
}

function LinkedBugs({ feature }: { feature: ManagedFeature }) {
  const bugs = useQuery({
    queryKey: ['bugs', feature.projectId, { featureId: feature.id }],
    queryFn: () =>
      unwrap(
        api.GET('/projects/{projectId}/bugs', {
          params: { path: { projectId: feature.projectId }, query: { featureId: feature.id, limit: 50 } },
        }),
      ),
  });
  return (
    <section className="card stack" aria-labelledby="bugs-title">
      <h2 id="bugs-title">Linked bug reports</h2>
      <QueryView query={bugs} what="bug reports">
        {(data) =>
          data.bugs.length === 0 ? (
            <p className="muted">No bug reports are linked to this idea.</p>
          ) : (
            <table className="table" aria-labelledby="bugs-title">
              <thead>
                <tr>
                  <th scope="col">Report</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Reports</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {data.bugs.map((bug) => (
                  <tr key={bug.id}>
                    <td>
                      <strong>{bug.title}</strong>
                      <br />
                      <span className="muted">{bug.message.slice(0, 160)}</span>
                    </td>
                    <td>{bug.severity}</td>
                    <td>{bug.occurrences}</td>
                    <td>{bug.status}</td>
                    <td>
                      <time dateTime={bug.lastSeenAt}>{when(bug.lastSeenAt)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryView>
    </section>
  );
}

function Merge({ feature }: { feature: ManagedFeature }) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<ManagedFeature | null>(null);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const searchId = useId();
  const similar = useQuery({
    queryKey: ['similar', feature.projectId, feature.id],
    queryFn: () =>
      unwrap(
        api.GET('/projects/{projectId}/features/{featureId}/similar', {
          params: { path: { projectId: feature.projectId, featureId: feature.id }, query: { limit: 5 } },
        }),
      ),
  });
  const found = useQuery({
    queryKey: ['merge-search', feature.projectId, feature.id, q],
    enabled: q.length > 0,
    queryFn: () =>
      unwrap(
        api.GET('/projects/{projectId}/features', {
          params: {
            path: { projectId: feature.projectId },
            query: { q, environment: feature.environment, sort: 'votes', limit: 8 },
          },
        }),
      ),
  });
  const search = (event: FormEvent) => {
    event.preventDefault();
    // A new search starts without a pick, so the one confirmed is always one in view.
    setTarget(null);
    setQ(text.trim());
  };
  const merge = async () => {
    if (!target) return;
    const result = await unwrap(
      api.POST('/projects/{projectId}/features/{featureId}/merge', {
        params: { path: { projectId: feature.projectId, featureId: feature.id } },
        body: { targetId: target.id },
      }),
    );
    queryClient.removeQueries({ queryKey: featureKey(feature.projectId, feature.id) });
    await queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
    await queryClient.invalidateQueries({ queryKey: featureKey(feature.projectId, target.id) });
    const moved = result.votesMoved === 1 ? '1 vote' : `${result.votesMoved} votes`;
    const comments = result.commentsMoved === 1 ? '1 comment' : `${result.commentsMoved} comments`;
    navigate(`/projects/${feature.projectId}/inbox/${target.id}`, {
      state: {
        ...((location.state as Nav) ?? {}),
        note: `“${feature.title}” was merged into this idea: ${moved} and ${comments} moved.`,
      },
    });
  };
  const candidates = (rows: ManagedFeature[], legend: string) => (
    <fieldset className="feature-candidates">
      <legend>{legend}</legend>
      {rows.map((row) => (
        <div key={row.id} className="checkbox">
          <input
            type="radio"
            id={`merge-${legend}-${row.id}`}
            name="merge-target"
            checked={target?.id === row.id}
            onChange={() => setTarget(row)}
          />
          <label htmlFor={`merge-${legend}-${row.id}`}>
            {row.title}{' '}
            <span className="muted">
              ({statusLabel(row.status)}, {row.voteCount === 1 ? '1 vote' : `${row.voteCount} votes`}
              {row.internal ? ', internal' : ''})
            </span>
          </label>
        </div>
      ))}
    </fieldset>
  );
  const searched = (found.data?.features ?? []).filter((row) => row.id !== feature.id);
  return (
    <section className="card stack" aria-labelledby="merge-title">
      <h2 id="merge-title">Merge into another idea</h2>
      <p className="muted">
        When this idea duplicates another, merge it: it is deleted and its votes (each voter counted once), comments,
        followers and linked bug reports move to the idea you pick.
      </p>
      <QueryView query={similar} what="similar ideas">
        {(data) =>
          data.features.length === 0 ? (
            <p className="muted">No similar ideas found. Search for the one to merge into.</p>
          ) : (
            candidates(data.features, 'Similar ideas')
          )
        }
      </QueryView>
      <form className="row inbox-search" onSubmit={search}>
        <div className="field">
          <label htmlFor={searchId}>Find another idea</label>
          <input
            id={searchId}
            type="search"
            value={text}
            placeholder="Words of its title"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary">
          Find
        </Button>
      </form>
      {q ? (
        found.isPending ? (
          <Loading what="ideas" />
        ) : found.isError ? (
          <ErrorNote error={found.error} />
        ) : searched.length === 0 ? (
          <p className="muted" role="status">
            No other idea matches “{q}”.
          </p>
        ) : (
          candidates(searched, 'Search results')
        )
      ) : null}
      {target ? (
        <div>
          <ConfirmButton
            label={`Merge into “${target.title}”`}
            title={`Merge into “${target.title}”?`}
            confirmLabel="Merge"
            variant="primary"
            onConfirm={merge}
          >
            <p>
              “{feature.title}” will be deleted. Its votes ({feature.voteCount}) and followers move to “{target.title}”,
              with its comments ({feature.commentCount}) and linked bug reports. Voters of both count once. This cannot
              be undone.
            </p>
          </ConfirmButton>
        </div>
      ) : null}
    </section>
  );
}

function Delete({ feature, inbox }: { feature: ManagedFeature; inbox: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = async () => {
    await unwrap(
      api.DELETE('/projects/{projectId}/features/{featureId}', {
        params: { path: { projectId: feature.projectId, featureId: feature.id } },
      }),
    );
    queryClient.removeQueries({ queryKey: featureKey(feature.projectId, feature.id) });
    await queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
    navigate(inbox, { state: { note: `“${feature.title}” was deleted.` } });
  };
  return (
    <section className="card stack" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      <p className="muted">
        Deleting removes the idea with its votes and comments. To keep it but hide it, make it internal.
      </p>
      <div>
        <ConfirmButton
          label="Delete this idea"
          title="Delete this idea?"
          confirmLabel="Delete idea"
          variant="danger"
          onConfirm={remove}
        >
          <p>
            “{feature.title}” is deleted with its {feature.voteCount} votes and {feature.commentCount} comments. Linked
            changelog entries keep its last status. This cannot be undone.
          </p>
        </ConfirmButton>
      </div>
    </section>
  );
}
