/**
 * Editing an idea's title and description (admins): the description card turns into a form;
 * saved with PATCH /projects/{id}/features/{featureId}, which marks the idea triaged. The board
 * shows the new text at once; followers are not e-mailed for an edit.
 */
import { type FormEvent, useState } from 'react';
import type { ManagedFeature } from '../../api/features.ts';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../../ui.tsx';
import { TextAreaField } from '../../widgets/fields.tsx';
import { bindFields, type FieldSpec } from '../../widgets/form-fields.ts';
import { usePatchFeature } from './refresh.ts';

const TITLE_FIELDS = {
  title: { label: 'Title', description: '4 to 120 characters; shown on the board and in e-mails.' },
} satisfies Record<string, FieldSpec>;

export function Description({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(feature.title);
  const [description, setDescription] = useState(feature.description);
  const [saved, setSaved] = useState('');
  const changes = {
    ...(title.trim() !== feature.title ? { title: title.trim() } : {}),
    ...(description.trim() !== feature.description ? { description: description.trim() } : {}),
  };
  const dirty = Object.keys(changes).length > 0;
  const save = usePatchFeature(feature, () => {
    setEditing(false);
    setSaved('Title and description saved.');
  });
  const errors = fieldErrors(save.error);
  const field = bindFields(TITLE_FIELDS, { title }, () => setTitle, errors);
  const start = () => {
    setTitle(feature.title);
    setDescription(feature.description);
    setSaved('');
    save.reset();
    setEditing(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (dirty) save.mutate(changes);
    else setEditing(false);
  };
  return (
    <section className="card stack" aria-labelledby="description-title">
      <h2 id="description-title">Description</h2>
      {editing ? (
        <form className="stack" onSubmit={submit}>
          <Field {...field('title')} name="title" autoFocus />
          <TextAreaField
            label="Description"
            name="description"
            rows={6}
            value={description}
            error={errors['description']}
            onChange={setDescription}
          />
          <div className="row">
            <Button type="submit" busy={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save title and description'}
            </Button>
            <Button variant="secondary" onPress={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
          {save.error && !errors['title'] && !errors['description'] ? <ErrorNote error={save.error} /> : null}
        </form>
      ) : (
        <>
          <p className="feature-description">{feature.description}</p>
          {admin ? (
            <div className="row">
              <Button variant="secondary" onPress={start}>
                Edit title and description
              </Button>
            </div>
          ) : null}
          {saved ? <Note>{saved}</Note> : null}
        </>
      )}
    </section>
  );
}
