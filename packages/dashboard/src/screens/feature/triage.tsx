/**
 * Triage of one idea: status (with the official response and the notify choice when it changes),
 * visibility and developer notes, saved with one button so followers get one e-mail, not one per
 * status passed while choosing. Members read the values.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { type FeatureStatus, type ManagedFeature, STATUSES, statusLabel } from '../../api/features.ts';
import { Button, ErrorNote, fieldErrors, Note } from '../../ui.tsx';
import { CheckboxField, SelectField, TextAreaField } from '../../widgets/fields.tsx';
import { useRefresh } from './refresh.ts';

export function Triage({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
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
