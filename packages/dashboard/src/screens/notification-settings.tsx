/**
 * A project's follower e-mail settings (issue 30): the undo window, the seconds a status-change
 * e-mail waits so that changes made within it are told once (and not at all when the idea ends
 * where it started). Admins change it; members read it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, type Project, unwrap } from '../api/client.ts';
import { Field, fieldErrors } from '../ui.tsx';
import { QueryView } from '../widgets/states.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';
import { useApiQuery } from '../api/use-api-query.ts';

const settingsKey = (projectId: string) => ['project', projectId, 'notification-settings'] as const;

export function NotificationSettings({ project, admin }: { project: Project; admin: boolean }) {
  const settings = useApiQuery(settingsKey(project.id), () =>
    api.GET('/projects/{projectId}/notification-settings', { params: { path: { projectId: project.id } } }),
  );
  return (
    <section className="card stack" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Follower e-mails</h2>
      <QueryView query={settings} what="the e-mail settings">
        {(data) =>
          admin ? (
            <UndoWindowForm project={project} seconds={data.undoWindowSeconds} />
          ) : (
            <p>Status-change e-mails wait {data.undoWindowSeconds} seconds; changes within that time are told once.</p>
          )
        }
      </QueryView>
    </section>
  );
}

const UNDO_FIELDS = {
  undoWindowSeconds: {
    label: 'Undo window (seconds)',
    description:
      'A status-change e-mail waits this long; changing back within it sends nothing, several changes send one. 0 sends at once.',
    inputMode: 'numeric',
  },
} satisfies Record<string, FieldSpec>;

function UndoWindowForm({ project, seconds }: { project: Project; seconds: number }) {
  const queryClient = useQueryClient();
  const form = useFormFields(UNDO_FIELDS, { undoWindowSeconds: String(seconds) });
  const value = form.values.undoWindowSeconds;
  const save = useMutation({
    mutationFn: (undoWindowSeconds: number) =>
      unwrap(
        api.PUT('/projects/{projectId}/notification-settings', {
          params: { path: { projectId: project.id } },
          body: { undoWindowSeconds },
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey(project.id), saved),
  });
  const errors = fieldErrors(save.error);
  const [invalid, setInvalid] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number > 3600) {
      setInvalid('A whole number of seconds from 0 to 3600');
      return;
    }
    setInvalid(undefined);
    save.mutate(number);
  };
  // The form's own word on the number comes before the server's.
  const field = form.bind({ undoWindowSeconds: invalid ?? errors['undoWindowSeconds'] });
  return (
    <form className="stack" onSubmit={submit}>
      <Field {...field('undoWindowSeconds')} />
      <FormActions
        request={save}
        submitLabel="Save e-mail settings"
        busyLabel="Saving…"
        done="E-mail settings saved."
      />
    </form>
  );
}
