/**
 * Triage of one idea: status (with the official response and the notify choice when it changes),
 * visibility and developer notes, saved with one button so followers get one e-mail, not one per
 * status passed while choosing. Members read the values.
 */
import { type FormEvent, useState } from 'react';
import { type FeatureStatus, type ManagedFeature, STATUSES, statusLabel } from '../../api/features.ts';
import { Button, ErrorNote, fieldErrors, Note } from '../../ui.tsx';
import { CheckboxField, SelectField, TextAreaField } from '../../widgets/fields.tsx';
import { usePatchFeature } from './refresh.ts';

export function Triage({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
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
  const save = usePatchFeature(feature, (changed, sent) => {
    const said: string[] = [];
    if ('status' in sent) said.push(`status ${statusLabel(changed.status)}`);
    if ('internal' in sent) said.push(changed.internal ? 'internal' : 'public');
    if ('developerNotes' in sent) said.push('developer notes');
    const told =
      'status' in sent
        ? sent.notify === false
          ? ' Followers are not told.'
          : ' Followers are told once the undo window ends.'
        : '';
    setSaved(`Saved: ${said.join(', ')}.${told}`);
    setResponse('');
    setNotify(true);
  });
  const errors = fieldErrors(save.error);
  /** A field's change: the last save's note goes, as it no longer describes the form. */
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      setSaved('');
      set(value);
    };
  /** A control sent as `name`: its value, the API's error under that name, and its change through `edit`. */
  const control = <T,>(name: string, value: T, set: (value: T) => void) => ({
    name,
    value,
    error: errors[name],
    onChange: edit(set),
  });
  /** The same for a checkbox, which has no error of its own. */
  const box = (name: string, checked: boolean, set: (checked: boolean) => void) => ({
    name,
    checked,
    onChange: edit(set),
  });
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
    if (dirty) save.mutate(changes);
  };
  return (
    <section className="card" aria-labelledby="triage-title">
      <form className="stack" onSubmit={submit}>
        <h2 id="triage-title">Triage</h2>
        <SelectField
          label="Status"
          options={STATUSES}
          description="Followers of the idea get an e-mail when its status changes (unless you choose otherwise below)."
          {...control('status', status, setStatus)}
        />
        {statusChanged ? (
          <>
            <TextAreaField
              label="Official response"
              rows={3}
              description="Optional: shown on the idea on the board and in the followers’ e-mail, as the team’s."
              {...control('response', response, setResponse)}
            />
            <CheckboxField
              label="Notify followers"
              description="The e-mail waits for the project’s undo window; changing back within it sends nothing."
              {...box('notify', notify, setNotify)}
            />
          </>
        ) : null}
        <CheckboxField
          label="Internal"
          description="Hidden from the board, the feeds and the public API."
          {...box('internal', internal, setInternal)}
        />
        <TextAreaField
          label="Developer notes"
          rows={5}
          description="For the team: never shown on the board."
          {...control('developerNotes', notes, setNotes)}
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
