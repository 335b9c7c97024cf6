/**
 * When a release's health has dropped (`release.health_dropped`, told once per drop to the
 * webhooks): crash-free sessions below a threshold, or more than some percentage points below
 * the previous release's, judged once a release has enough sessions. Read by members, changed by
 * admins (GET and PATCH /projects/{id}/release-health-settings); a refusal is shown at its field
 * and nothing typed is lost.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { type DropSettings, dropSettingsKey } from '../api/release-health.ts';
import { Field, fieldErrors } from '../ui.tsx';
import { FormActions } from './form-actions.tsx';
import { type FieldSpec, useFormFields } from './form-fields.ts';
import { QueryView } from './states.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

export function ReleaseHealthSettings({ projectId, admin }: { projectId: string; admin: boolean }) {
  const settings = useApiQuery(dropSettingsKey(projectId), () =>
    api.GET('/projects/{projectId}/release-health-settings', { params: { path: { projectId } } }),
  );
  return (
    <section className="card stack" aria-labelledby="drop-settings-title">
      <h2 id="drop-settings-title">When a release’s health drops</h2>
      <p className="muted">
        A release has dropped when its crash-free sessions fall below the threshold, or this many points below the
        previous release's; the webhooks are told once per drop (release.health_dropped).
      </p>
      <QueryView query={settings} what="the health drop settings">
        {(data) =>
          admin ? (
            <SettingsForm projectId={projectId} saved={data} />
          ) : (
            <dl className="facts">
              <dt>Crash-free threshold</dt>
              <dd>{data.crashFreeThreshold} %</dd>
              <dt>Points under the previous release</dt>
              <dd>{data.maxDropPoints}</dd>
              <dt>Sessions before a release is judged</dt>
              <dd>{data.minSessions}</dd>
            </dl>
          )
        }
      </QueryView>
    </section>
  );
}

/** The drop settings, named as the API names them. */
const SETTINGS_FIELDS = {
  crashFreeThreshold: {
    label: 'Crash-free threshold (%)',
    description: 'A release below this share of crash-free sessions has dropped, 0 to 100',
    type: 'number',
  },
  maxDropPoints: {
    label: 'Points under the previous release',
    description: 'A release this many percentage points below the previous one has dropped, 0 to 100',
    type: 'number',
  },
  minSessions: {
    label: 'Sessions before a release is judged',
    description: 'A release with fewer sessions is not judged',
    type: 'number',
  },
} satisfies Record<string, FieldSpec>;

function SettingsForm({ projectId, saved }: { projectId: string; saved: DropSettings }) {
  const queryClient = useQueryClient();
  const form = useFormFields(SETTINGS_FIELDS, {
    crashFreeThreshold: String(saved.crashFreeThreshold),
    maxDropPoints: String(saved.maxDropPoints),
    minSessions: String(saved.minSessions),
  });
  const typed = form.values;
  const [note, setNote] = useState('');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/projects/{projectId}/release-health-settings', {
          params: { path: { projectId } },
          body: {
            crashFreeThreshold: Number(typed.crashFreeThreshold),
            maxDropPoints: Number(typed.maxDropPoints),
            minSessions: Number(typed.minSessions),
          },
        }),
      ),
    onSuccess: (data) => {
      setNote(
        `Saved: below ${data.crashFreeThreshold} % crash-free sessions, or ${data.maxDropPoints} points under the previous release.`,
      );
      queryClient.setQueryData(dropSettingsKey(projectId), data);
    },
  });
  // A field left empty or not a number is named here; a number out of range, by the server.
  const [missing, setMissing] = useState<Record<string, string>>({});
  const field = form.bind({ ...fieldErrors(save.error), ...missing });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNote('');
    const wrong = Object.fromEntries(
      Object.entries(typed)
        .filter(([, value]) => value.trim() === '' || !Number.isFinite(Number(value)))
        .map(([name]) => [name, 'Enter a number']),
    );
    setMissing(wrong);
    if (Object.keys(wrong).length === 0) save.mutate();
  };
  return (
    <form className="stack" onSubmit={submit} noValidate aria-labelledby="drop-settings-title">
      <div className="releases-form-grid">
        <Field {...field('crashFreeThreshold')} />
        <Field {...field('maxDropPoints')} />
        <Field {...field('minSessions')} />
      </div>
      <FormActions request={save} submitLabel="Save drop settings" note={note} />
    </form>
  );
}
