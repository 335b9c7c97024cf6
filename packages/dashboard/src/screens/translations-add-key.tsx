/** The translations screen's form to add one key with its default text. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { translationsKey } from '../api/translations.ts';
import { Field, fieldErrors } from '../ui.tsx';
import { FormActions } from '../widgets/form-actions.tsx';

export function AddKey({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const empty = { key: '', defaultText: '', namespace: '', category: '' };
  const [form, setForm] = useState(empty);
  const [note, setNote] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/translations/keys', {
          params: { path: { projectId } },
          body: {
            key: form.key.trim(),
            defaultText: form.defaultText,
            ...(form.namespace.trim() ? { namespace: form.namespace.trim() } : {}),
            ...(form.category.trim() ? { category: form.category.trim() } : {}),
          },
        }),
      ),
    onSuccess: (created) => {
      setNote(`Key ${created.key} added.`);
      setForm(empty);
      void queryClient.invalidateQueries({ queryKey: translationsKey(projectId) });
    },
  });
  const errors = fieldErrors(create.error);
  const set = (name: keyof typeof empty) => (value: string) => setForm((current) => ({ ...current, [name]: value }));
  return (
    <details className="translations-add">
      <summary>Add a key</summary>
      <form
        className="stack"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setNote('');
          create.mutate();
        }}
      >
        <div className="translations-form-grid">
          <Field
            label="Key"
            description="Letters, digits, dots, underscores and hyphens, e.g. checkout.pay"
            value={form.key}
            onChange={set('key')}
            isRequired
            serverError={errors.key}
          />
          <Field
            label="Default text"
            value={form.defaultText}
            onChange={set('defaultText')}
            serverError={errors.defaultText}
          />
          <Field
            label="Namespace (optional)"
            value={form.namespace}
            onChange={set('namespace')}
            serverError={errors.namespace}
          />
          <Field
            label="Category (optional)"
            value={form.category}
            onChange={set('category')}
            serverError={errors.category}
          />
        </div>
        <FormActions request={create} submitLabel="Add key" note={note} />
      </form>
    </details>
  );
}
