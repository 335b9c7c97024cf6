/** The translations screen's form to add one key with its default text. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { translationsKey } from '../api/translations.ts';
import { Field, fieldErrors } from '../ui.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { bindFields, type FieldSpec } from '../widgets/form-fields.ts';

const KEY_FIELDS = {
  key: {
    label: 'Key',
    description: 'Letters, digits, dots, underscores and hyphens, e.g. checkout.pay',
    isRequired: true,
  },
  defaultText: { label: 'Default text' },
  namespace: { label: 'Namespace (optional)' },
  category: { label: 'Category (optional)' },
} satisfies Record<string, FieldSpec>;

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
  const field = bindFields(KEY_FIELDS, form, set, errors);
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
          <Field {...field('key')} />
          <Field {...field('defaultText')} />
          <Field {...field('namespace')} />
          <Field {...field('category')} />
        </div>
        <FormActions request={create} submitLabel="Add key" note={note} />
      </form>
    </details>
  );
}
