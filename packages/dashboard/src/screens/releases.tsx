/**
 * Releases: each release's health and adoption (widgets/release-health-table.tsx, linking to a
 * release's page), when a release's health has dropped (widgets/release-health-settings.tsx),
 * the list (newest version first; then versions seen in live events or sessions but not created,
 * widgets/seen-releases.tsx), creating and editing one (SemVer checked here and by the server; a
 * refusal is shown in place and nothing typed is lost), deleting after a confirmation, and a
 * preview of the version check: what GET /version-check answers a client on a version the user
 * types, asked of the server's own decision (GET /projects/{id}/releases/check).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { isSemver, type Release, releasesKey, type VersionInfo } from '../api/translations.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField, TextAreaField } from '../widgets/fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { bindFields, type FieldSpec } from '../widgets/form-fields.ts';
import { ReleaseHealthSettings } from '../widgets/release-health-settings.tsx';
import { ReleaseHealthTable } from '../widgets/release-health-table.tsx';
import { SeenReleases } from '../widgets/seen-releases.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './releases.css';
import { ACTIONS, DataTable } from '../widgets/data-table.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

interface Draft {
  version: string;
  title: string;
  releaseDate: string;
  downloadUrl: string;
  gitCommit: string;
  releaseNotes: string;
  isBeta: boolean;
  required: boolean;
}

const EMPTY: Draft = {
  version: '',
  title: '',
  releaseDate: '',
  downloadUrl: '',
  gitCommit: '',
  releaseNotes: '',
  isBeta: false,
  required: false,
};

/** The release form's text fields (the notes, Beta and Required are other controls). */
const RELEASE_FIELDS = {
  version: { label: 'Version', description: 'SemVer: 1.4.0, or 2.0.0-beta.1 for a prerelease', isRequired: true },
  title: { label: 'Title' },
  releaseDate: { label: 'Release date', type: 'datetime-local', description: 'Empty: now' },
  downloadUrl: { label: 'Download URL', type: 'url', description: 'https://…, or empty' },
  gitCommit: { label: 'Git commit', description: '7 to 40 hex digits; clients may send it instead of a version' },
} satisfies Record<string, FieldSpec>;

/** An ISO time as the value of a datetime-local input, in the reader's time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function draftOf(release: Release): Draft {
  return {
    version: release.version,
    title: release.title,
    releaseDate: toLocalInput(release.releaseDate),
    downloadUrl: release.downloadUrl,
    gitCommit: release.gitCommit ?? '',
    releaseNotes: release.releaseNotes,
    isBeta: release.isBeta,
    required: release.required,
  };
}

export default function Releases() {
  useTitle('Releases');
  const project = useProject();
  const admin = canAdminister(project);
  const releases = useApiQuery(releasesKey(project.id), () =>
    api.GET('/projects/{projectId}/releases', { params: { path: { projectId: project.id } } }),
  );
  const [editing, setEditing] = useState<Release | null>(null);
  const [note, setNote] = useState('');
  return (
    <div className="releases stack">
      <h1>Releases</h1>
      <ReleaseHealthTable projectId={project.id} />
      <ReleaseHealthSettings projectId={project.id} admin={admin} />
      <Preview projectId={project.id} />
      {admin ? (
        <ReleaseForm
          key={editing?.id ?? 'new'}
          projectId={project.id}
          editing={editing}
          onDone={(message) => {
            setEditing(null);
            setNote(message);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {note ? <Note>{note}</Note> : null}
      <section className="card stack" aria-labelledby="list-title">
        <h2 id="list-title">All releases</h2>
        <QueryView query={releases} what="releases">
          {(data) => (
            <>
              {data.releases.length === 0 ? (
                <Empty>
                  <p>No releases yet. Until there is one, the version check offers no update.</p>
                </Empty>
              ) : (
                <DataTable
                  className="releases-table"
                  caption="Releases, newest version first"
                  columns={['Version', 'Title', 'Date', 'Flags', 'Git commit', 'Notes', admin && ACTIONS]}
                >
                  {data.releases.map((release) => (
                    <tr key={release.id}>
                      <th scope="row">
                        <code>{release.version}</code>
                      </th>
                      <td>
                        {release.downloadUrl ? (
                          <a href={release.downloadUrl} rel="noreferrer">
                            {release.title || 'Download'}
                          </a>
                        ) : (
                          release.title || <span className="muted">–</span>
                        )}
                      </td>
                      <td>
                        <time dateTime={release.releaseDate}>{new Date(release.releaseDate).toLocaleDateString()}</time>
                      </td>
                      <td>
                        <span className="releases-flags">
                          {release.isBeta ? <span className="badge badge-warn">Beta</span> : null}
                          {release.required ? <span className="badge badge-ok">Required</span> : null}
                          {!release.isBeta && !release.required ? <span className="muted">–</span> : null}
                        </span>
                      </td>
                      <td>
                        {release.gitCommit ? (
                          <code>{release.gitCommit.slice(0, 12)}</code>
                        ) : (
                          <span className="muted">–</span>
                        )}
                      </td>
                      <td className="releases-notes">{release.releaseNotes || <span className="muted">–</span>}</td>
                      {admin ? (
                        <td>
                          <div className="row releases-actions">
                            <Button
                              variant="secondary"
                              aria-label={`Edit ${release.version}`}
                              onPress={() => {
                                setNote('');
                                setEditing(release);
                              }}
                            >
                              Edit
                            </Button>
                            <DeleteRelease projectId={project.id} release={release} onDeleted={setNote} />
                          </div>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </DataTable>
              )}
              <SeenReleases seen={data.seen} />
            </>
          )}
        </QueryView>
      </section>
    </div>
  );
}

function DeleteRelease({
  projectId,
  release,
  onDeleted,
}: {
  projectId: string;
  release: Release;
  onDeleted: (note: string) => void;
}) {
  const queryClient = useQueryClient();
  return (
    <ConfirmButton
      label="Delete"
      title={`Delete release ${release.version}?`}
      confirmLabel="Delete release"
      onConfirm={async () => {
        await unwrap(
          api.DELETE('/projects/{projectId}/releases/{version}', {
            params: { path: { projectId, version: release.version } },
          }),
        );
        onDeleted(`Release ${release.version} deleted.`);
        await queryClient.invalidateQueries({ queryKey: releasesKey(projectId) });
      }}
    >
      <p>The version check stops offering it; clients on it are compared with the remaining releases.</p>
    </ConfirmButton>
  );
}

function ReleaseForm({
  projectId,
  editing,
  onDone,
  onCancel,
}: {
  projectId: string;
  editing: Release | null;
  onDone: (note: string) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(editing ? draftOf(editing) : EMPTY);
  const [versionProblem, setVersionProblem] = useState('');
  const set =
    <K extends keyof Draft>(name: K) =>
    (value: Draft[K]) => {
      setDraft((current) => ({ ...current, [name]: value }));
      if (name === 'version') setVersionProblem('');
    };
  const save = useMutation({
    mutationFn: async () => {
      const common = {
        title: draft.title,
        releaseNotes: draft.releaseNotes,
        downloadUrl: draft.downloadUrl.trim(),
        isBeta: draft.isBeta,
        required: draft.required,
        ...(draft.releaseDate ? { releaseDate: new Date(draft.releaseDate).toISOString() } : {}),
      };
      const gitCommit = draft.gitCommit.trim();
      if (editing) {
        return unwrap(
          api.PATCH('/projects/{projectId}/releases/{version}', {
            params: { path: { projectId, version: editing.version } },
            body: { ...common, version: draft.version.trim(), gitCommit: gitCommit || null },
          }),
        );
      }
      return unwrap(
        api.POST('/projects/{projectId}/releases', {
          params: { path: { projectId } },
          body: { ...common, version: draft.version.trim(), ...(gitCommit ? { gitCommit } : {}) },
        }),
      );
    },
    onSuccess: (release) => {
      onDone(editing ? `Release ${release.version} saved.` : `Release ${release.version} created.`);
      if (!editing) setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: releasesKey(projectId) });
    },
  });
  const errors = fieldErrors(save.error);
  const field = bindFields(RELEASE_FIELDS, draft, set, errors);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isSemver(draft.version)) {
      setVersionProblem('Must be a SemVer version such as 1.4.0 or 2.0.0-beta.1');
      return;
    }
    save.mutate();
  };
  const title = editing ? `Edit release ${editing.version}` : 'New release';
  return (
    <section className="card stack" aria-labelledby="release-form-title">
      <h2 id="release-form-title">{title}</h2>
      <form className="stack" onSubmit={submit} noValidate>
        <div className="releases-form-grid">
          <Field {...field('version')} autoFocus={editing !== null} serverError={versionProblem || errors.version} />
          <Field {...field('title')} />
          <Field {...field('releaseDate')} />
          <Field {...field('downloadUrl')} />
          <Field {...field('gitCommit')} />
        </div>
        <TextAreaField
          label="Release notes"
          value={draft.releaseNotes}
          onChange={set('releaseNotes')}
          error={errors.releaseNotes}
        />
        <CheckboxField
          label="Beta"
          description="Offered only to clients already on a prerelease"
          checked={draft.isBeta}
          onChange={set('isBeta')}
        />
        <CheckboxField
          label="Required"
          description="Clients below this version must update"
          checked={draft.required}
          onChange={set('required')}
        />
        <FormActions
          request={save}
          submitLabel={editing ? 'Save release' : 'Create release'}
          onCancel={editing ? onCancel : undefined}
        />
      </form>
    </section>
  );
}

/** The version check's answer in words. */
function describe(version: string, info: VersionInfo): string {
  const latest = info.latestVersion?.version;
  if (!latest) return 'No release to compare with: the version check offers no update.';
  if (!info.updateAvailable && !info.updateRequired) {
    return `No update: ${latest} is the latest release${version ? '' : ' (no client version given)'}.`;
  }
  const type = info.updateType === 'none' ? '' : ` (${info.updateType} update)`;
  if (info.updateRequired) return `Update required: a client on ${version} must update to ${latest}${type}.`;
  if (info.updateRecommended) return `Update recommended: ${version} → ${latest}${type}.`;
  return `Update available: ${version} → ${latest}${type}, not required.`;
}

function Preview({ projectId }: { projectId: string }) {
  const [version, setVersion] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const resultId = useId();
  const check = useApiQuery(
    [...releasesKey(projectId), 'check', asked],
    () =>
      api.GET('/projects/{projectId}/releases/check', {
        params: { path: { projectId }, query: asked ? { currentVersion: asked } : {} },
      }),
    { enabled: asked !== null },
  );
  return (
    <section className="card stack" aria-labelledby="preview-title">
      <h2 id="preview-title">Version check preview</h2>
      <p className="muted">What the public version check (GET /version-check) answers an app on this version now.</p>
      <form
        className="row releases-preview-form"
        onSubmit={(event) => {
          event.preventDefault();
          setAsked(version.trim());
        }}
      >
        <Field
          label="Client version"
          description="SemVer or a release's git commit"
          value={version}
          onChange={setVersion}
        />
        <Button type="submit" variant="secondary">
          Check
        </Button>
      </form>
      {asked === null ? null : (
        <div id={resultId} className="stack" aria-live="polite">
          {check.isPending ? (
            <p className="loading">Checking…</p>
          ) : check.isError ? (
            <ErrorNote error={check.error} />
          ) : check.data ? (
            <>
              <p className={`releases-verdict${check.data.updateRequired ? ' releases-verdict-required' : ''}`}>
                {describe(asked, check.data)}
              </p>
              <dl className="facts releases-facts">
                <dt>Update available</dt>
                <dd>{check.data.updateAvailable ? 'Yes' : 'No'}</dd>
                <dt>Update type</dt>
                <dd>{check.data.updateType}</dd>
                <dt>Update required</dt>
                <dd>{check.data.updateRequired ? 'Yes' : 'No'}</dd>
                <dt>Update recommended</dt>
                <dd>{check.data.updateRecommended ? 'Yes' : 'No'}</dd>
                <dt>Latest version</dt>
                <dd>{check.data.latestVersion?.version ?? 'None'}</dd>
              </dl>
              <h3>As JSON</h3>
              <pre className="releases-json">{JSON.stringify(check.data, null, 2)}</pre>
            </>
          ) : null}
        </div>
      )}
    </section>
  );
}
