/**
 * Filing an idea on a person's behalf (admins): heard in a call or an e-mail, filed for them. Pick
 * one of the project's people by name or e-mail, or give a new address (a new person); the idea is
 * theirs, with their vote, and starts triaged. One use case on the server
 * (POST /projects/{id}/features), the same the management API offers.
 */
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DialogTrigger, Heading } from 'react-aria-components';
import { api, unwrap } from '../../api/client.ts';
import { featuresKey, type ManagedFeature, TYPES } from '../../api/features.ts';
import { companyLine, personName } from '../../api/people.ts';
import { Button, ErrorNote, Field, fieldErrors } from '../../ui.tsx';
import { SelectField, TextAreaField } from '../../widgets/fields.tsx';
import { ModalDialog } from '../../widgets/modal.tsx';
import { setAnd } from '../../widgets/form-request.ts';
import { useApiQuery } from '../../api/use-api-query.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function NewIdeaButton({
  projectId,
  onCreated,
}: {
  projectId: string;
  onCreated: (feature: ManagedFeature, who: string) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary">New idea for a person</Button>
      <ModalDialog className="inbox-new-modal">
        {({ close }) => (
          <NewIdeaForm
            projectId={projectId}
            onCancel={close}
            onCreated={(feature, who) => {
              close();
              onCreated(feature, who);
            }}
          />
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

type Author = { personId: string; label: string } | { email: string; label: string };

function NewIdeaForm({
  projectId,
  onCancel,
  onCreated,
}: {
  projectId: string;
  onCancel: () => void;
  onCreated: (feature: ManagedFeature, who: string) => void;
}) {
  const queryClient = useQueryClient();
  const [who, setWho] = useState('');
  const [author, setAuthor] = useState<Author | null>(null);
  const [name, setName] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [type, setType] = useState<'feature' | 'bug'>('feature');
  const q = who.trim();
  const people = useApiQuery(
    ['people', projectId, 'pick', q],
    () => api.GET('/projects/{projectId}/people', { params: { path: { projectId }, query: { q, limit: 6 } } }),
    { enabled: q.length >= 2, placeholderData: keepPreviousData },
  );
  const found = q.length >= 2 ? (people.data?.people ?? []) : [];
  const newAddress = EMAIL.test(q) && !found.some((person) => person.email?.toLowerCase() === q.toLowerCase());
  const create = useMutation({
    mutationFn: (chosen: Author) =>
      unwrap(
        api.POST('/projects/{projectId}/features', {
          params: { path: { projectId } },
          body: {
            title: title.trim(),
            description: description.trim(),
            type,
            ...('personId' in chosen
              ? { personId: chosen.personId }
              : { email: chosen.email, ...(name.trim() ? { name: name.trim() } : {}) }),
          },
        }),
      ),
    onSuccess: async (feature, chosen) => {
      await queryClient.invalidateQueries({ queryKey: featuresKey(projectId) });
      await queryClient.invalidateQueries({ queryKey: ['people', projectId] });
      onCreated(feature, chosen.label);
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (author) create.mutate(author);
  };
  return (
    <form className="stack" onSubmit={submit}>
      <Heading slot="title">New idea for a person</Heading>
      <p className="muted">
        The idea is theirs, with their vote, as if they had filed it; it starts triaged. They get the usual e-mails as a
        follower.
      </p>
      <Field
        label="Person"
        type="search"
        value={who}
        onChange={setAnd(setWho, () => setAuthor(null))}
        description="Name or e-mail of one of the project’s people, or a new e-mail address."
        autoFocus
      />
      {found.length > 0 || newAddress ? (
        <fieldset className="feature-candidates">
          <legend>Who asked</legend>
          {found.map((person) => {
            const label = personName(person);
            const company = companyLine(person.company);
            return (
              <div key={person.id} className="checkbox">
                <input
                  type="radio"
                  id={`author-${person.id}`}
                  name="author"
                  checked={author !== null && 'personId' in author && author.personId === person.id}
                  onChange={() => setAuthor({ personId: person.id, label })}
                />
                <label htmlFor={`author-${person.id}`}>
                  {label}
                  {person.email && person.name ? <span className="muted"> ({person.email})</span> : null}
                  {company ? <span className="muted"> · {company}</span> : null}
                </label>
              </div>
            );
          })}
          {newAddress ? (
            <div className="checkbox">
              <input
                type="radio"
                id="author-new"
                name="author"
                checked={author !== null && 'email' in author}
                onChange={() => setAuthor({ email: q, label: q })}
              />
              <label htmlFor="author-new">A new person: {q}</label>
            </div>
          ) : null}
        </fieldset>
      ) : q.length >= 2 && !people.isFetching ? (
        <p className="muted" role="status">
          Nobody matches “{q}”. Type their full e-mail address to add them.
        </p>
      ) : null}
      {author !== null && 'email' in author ? (
        <Field label="Their name (optional)" value={name} onChange={setName} serverError={errors['name']} />
      ) : null}
      {errors['personId'] ? (
        <p className="field-error" role="alert">
          {errors['personId']}
        </p>
      ) : null}
      <Field label="Title" value={title} onChange={setTitle} serverError={errors['title']} />
      <TextAreaField
        label="Description"
        rows={4}
        value={description}
        error={errors['description']}
        onChange={setDescription}
      />
      <SelectField label="Type" value={type} options={TYPES} onChange={setType} />
      {create.error && Object.keys(errors).length === 0 ? <ErrorNote error={create.error} /> : null}
      <div className="row">
        <Button type="submit" busy={create.isPending} isDisabled={!author || !title.trim() || !description.trim()}>
          {create.isPending ? 'Filing…' : 'File the idea'}
        </Button>
        <Button variant="quiet" onPress={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
