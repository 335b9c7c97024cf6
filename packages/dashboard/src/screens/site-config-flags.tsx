/** The site-config screen's feature-flag tab: the flags with their on/off switch, and adding one. */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../api/client.ts';
import type { FeatureFlag } from '../api/site-config.ts';
import { ErrorNote, Field, fieldErrors } from '../ui.tsx';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField } from '../widgets/fields.tsx';
import { Empty } from '../widgets/states.tsx';
import { FlagHistory } from './site-config-flag-history.tsx';
import { FlagTargeting } from './site-config-flag-targeting.tsx';
import { useRefresh } from './site-config-refresh.ts';
import { FormActions } from '../widgets/form-actions.tsx';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';

export function FlagsSection({ projectId, flags, admin }: { projectId: string; flags: FeatureFlag[]; admin: boolean }) {
  return (
    <>
      <h2>Feature flags</h2>
      {flags.length === 0 ? (
        <Empty>
          <p>No feature flags yet.{admin ? ' Add one by its key below.' : ''}</p>
        </Empty>
      ) : (
        <ul className="flag-list">
          {flags.map((flag) => (
            <FlagRow key={flag.id} projectId={projectId} flag={flag} admin={admin} />
          ))}
        </ul>
      )}
      {admin ? <NewFlag projectId={projectId} /> : null}
    </>
  );
}

function setFlag(projectId: string, flagKey: string, enabled: boolean) {
  return unwrap(
    api.PUT('/projects/{projectId}/site-config/flags/{flagKey}', {
      params: { path: { projectId, flagKey } },
      body: { enabled },
    }),
  );
}

function FlagRow({ projectId, flag, admin }: { projectId: string; flag: FeatureFlag; admin: boolean }) {
  const refresh = useRefresh(projectId);
  const [enabled, setEnabled] = useState(flag.enabled);
  const toggle = useMutation({
    mutationFn: (next: boolean) => setFlag(projectId, flag.key, next),
    onMutate: (next) => setEnabled(next),
    onError: () => setEnabled(flag.enabled),
    onSuccess: () => refresh(),
  });
  const remove = async () => {
    await unwrap(
      api.DELETE('/projects/{projectId}/site-config/flags/{flagKey}', {
        params: { path: { projectId, flagKey: flag.key } },
      }),
    );
    await refresh();
  };
  return (
    <li className="flag-row">
      {admin ? (
        <CheckboxField label={<span className="code">{flag.key}</span>} checked={enabled} onChange={toggle.mutate} />
      ) : (
        <span className="code">{flag.key}</span>
      )}
      <span className={enabled ? 'badge badge-ok' : 'badge'}>{enabled ? 'On' : 'Off'}</span>
      {admin ? (
        <ConfirmButton label={`Delete ${flag.key}`} title={`Delete the flag ${flag.key}?`} onConfirm={remove}>
          Apps stop receiving this flag at once; code that reads it sees no flag.
        </ConfirmButton>
      ) : null}
      {toggle.error ? <ErrorNote error={toggle.error} /> : null}
      <FlagTargeting projectId={projectId} flag={flag} admin={admin} />
      <FlagHistory projectId={projectId} flagKey={flag.key} />
    </li>
  );
}

const FLAG_FIELDS = {
  key: { label: 'Key', description: 'e.g. new-checkout' },
} satisfies Record<string, FieldSpec>;

function NewFlag({ projectId }: { projectId: string }) {
  const refresh = useRefresh(projectId);
  const [enabled, setEnabled] = useState(false);
  const [keyError, setKeyError] = useState<string>();
  const form = useFormFields(FLAG_FIELDS, { key: '' }, () => setKeyError(undefined));
  const key = form.values.key;
  const create = useMutation({
    mutationFn: () => setFlag(projectId, key.trim(), enabled),
    onSuccess: async () => {
      form.reset();
      setEnabled(false);
      await refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^[A-Za-z0-9._:-]{1,100}$/.test(key.trim())) {
      setKeyError('Letters, digits and . _ : - only, up to 100');
      return;
    }
    setKeyError(undefined);
    create.mutate();
  };
  // The form's own word on the key comes before the server's.
  const field = form.bind({ key: keyError ?? fieldErrors(create.error).flagKey });
  return (
    <Form className="stack new-flag" onSubmit={submit} aria-labelledby="new-flag-title">
      <h3 id="new-flag-title">New flag</h3>
      <div className="row">
        <Field {...field('key')} />
        <CheckboxField label="On from the start" checked={enabled} onChange={setEnabled} />
      </div>
      <FormActions request={create} submitLabel="Add flag" busyLabel="Adding…" />
    </Form>
  );
}
