/**
 * A project's API keys (admins and owners): the list by prefix, a form that creates a live or test
 * key with chosen scopes, secret or publishable, shown once; and revoking, behind a confirmation.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'react-router';
import { api, type Project, unwrap } from '../api/client.ts';
import { type ApiKey, formatDate, KEY_SCOPES, type KeyScope } from '../api/projects.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Field, fieldErrors } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { ACTIONS, DataTable } from '../widgets/data-table.tsx';
import { CheckboxField, CheckboxGroup, SelectField, useRequiredSelection } from '../widgets/fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { ShownOnceCard } from '../widgets/secret.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './projects.css';
import { useApiQuery } from '../api/use-api-query.ts';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';
import { submitting } from '../widgets/form-request.ts';

const keysKey = (projectId: string) => ['project', projectId, 'keys'] as const;

export default function ProjectKeys() {
  const project = useProject();
  useTitle(`API keys · ${project.name}`);
  return (
    <section className="stack" aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {canAdminister(project) ? (
        <KeysScreen project={project} />
      ) : (
        <p className="muted">
          Admins and owners of this project’s team manage its API keys. Ask one of them for a key, or see the{' '}
          <Link to={`/projects/${project.id}/inbox`}>inbox</Link>.
        </p>
      )}
    </section>
  );
}

function KeysScreen({ project }: { project: Project }) {
  const keys = useApiQuery(keysKey(project.id), () =>
    api.GET('/projects/{projectId}/keys', { params: { path: { projectId: project.id } } }),
  );
  const [created, setCreated] = useState<{ key: string; name: string; sentryDsn: string } | null>(null);
  return (
    <>
      <p className="muted">
        Keys let your apps use the public API (<code>/api/public/v1</code>): test keys see test data only, live keys
        live data. The whole key is shown once, when it is made.
      </p>
      {created ? (
        <ShownOnceCard
          title={`Your new key${created.name ? `: ${created.name}` : ''}`}
          label="The new API key"
          value={created.key}
          onDone={() => setCreated(null)}
        >
          <p>
            For Sentry SDKs, the DSN with this key (
            <code>
              Sentry.init({'{'} dsn {'}'})
            </code>
            ):{' '}
            <code className="dsn" id="new-key-dsn">
              {created.sentryDsn}
            </code>
          </p>
        </ShownOnceCard>
      ) : null}
      <section className="stack" aria-labelledby="key-list-title">
        <h2 id="key-list-title">Keys</h2>
        <QueryView query={keys} what="keys">
          {(data) =>
            data.keys.length === 0 ? (
              <Empty>No keys yet. Create one below to send feedback, bugs or errors from your app.</Empty>
            ) : (
              <>
                <KeyTable project={project} keys={data.keys} />
                <p className="muted">
                  Sentry SDKs report here with the DSN{' '}
                  <code className="dsn" id="sentry-dsn">
                    {data.keys[0]?.sentryDsn}
                  </code>
                  , the whole key in place of <code>&lt;key&gt;</code>.
                </p>
              </>
            )
          }
        </QueryView>
      </section>
      <CreateKey project={project} onCreated={setCreated} />
    </>
  );
}

function KeyTable({ project, keys }: { project: Project; keys: ApiKey[] }) {
  const queryClient = useQueryClient();
  const revoke = async (key: ApiKey) => {
    await unwrap(
      api.DELETE('/projects/{projectId}/keys/{keyId}', { params: { path: { projectId: project.id, keyId: key.id } } }),
    );
    await queryClient.invalidateQueries({ queryKey: keysKey(project.id) });
  };
  return (
    <DataTable
      className="keys-table"
      caption={`API keys of ${project.name}`}
      columns={['Name', 'Key', 'Scopes', 'Created', ACTIONS]}
    >
      {keys.map((key) => (
        <tr key={key.id}>
          <td>
            <div>{key.name || <span className="muted">(no name)</span>}</div>
            <div className="row">
              <span className={`badge ${key.environment === 'live' ? 'badge-ok' : 'badge-warn'}`}>
                {key.environment}
              </span>
              <span className="badge">{key.publishable ? 'publishable' : 'secret'}</span>
            </div>
          </td>
          <td className="code">{key.prefix}…</td>
          <td>{key.scopes.join(', ')}</td>
          <td>{formatDate(key.createdAt)}</td>
          <td>
            {key.revokedAt ? (
              <span className="muted">Revoked {formatDate(key.revokedAt)}</span>
            ) : (
              <ConfirmButton
                label={`Revoke ${key.name || key.prefix}`}
                title="Revoke this key?"
                confirmLabel="Revoke key"
                variant="danger"
                onConfirm={() => revoke(key)}
              >
                Apps using <span className="code">{key.prefix}…</span> are refused from the next request on. This cannot
                be undone.
              </ConfirmButton>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

const DEFAULT_SCOPES: KeyScope[] = ['public:read', 'features:read', 'features:write', 'bugs:write'];

const ENVIRONMENTS: readonly { value: 'live' | 'test'; label: string }[] = [
  { value: 'test', label: 'Test (svc_test_…): test data only' },
  { value: 'live', label: 'Live (svc_live_…)' },
];

const KEY_FIELDS = {
  name: { label: 'Key name', description: 'Where it is used, e.g. iOS app' },
} satisfies Record<string, FieldSpec>;

function CreateKey({
  project,
  onCreated,
}: {
  project: Project;
  onCreated: (created: { key: string; name: string; sentryDsn: string }) => void;
}) {
  const queryClient = useQueryClient();
  const form = useFormFields(KEY_FIELDS, { name: '' });
  const name = form.values.name;
  const [environment, setEnvironment] = useState<'live' | 'test'>('test');
  const scopes = useRequiredSelection<KeyScope>(DEFAULT_SCOPES, 'Choose at least one scope');
  const [publishable, setPublishable] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/keys', {
          params: { path: { projectId: project.id } },
          body: { name: name.trim(), environment, scopes: scopes.selected, publishable },
        }),
      ),
    onSuccess: async (made) => {
      onCreated({ key: made.key, name: made.apiKey.name, sentryDsn: made.sentryDsn });
      form.reset();
      await queryClient.invalidateQueries({ queryKey: keysKey(project.id) });
    },
  });
  const errors = fieldErrors(create.error);
  const field = form.bind(errors);
  const submit = submitting(() => create.mutate(), scopes.check);
  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <div className="grid-2">
        <Field {...field('name')} />
        <SelectField
          label="Environment"
          value={environment}
          options={ENVIRONMENTS}
          onChange={setEnvironment}
          error={errors.environment}
        />
      </div>
      <CheckboxGroup
        legend="Scopes"
        options={KEY_SCOPES.map(({ scope, description }) => ({ value: scope, description }))}
        selection={scopes}
        serverError={errors.scopes}
      />
      <CheckboxField
        label="Publishable"
        checked={publishable}
        onChange={setPublishable}
        description="For a key embedded in a web page or app (the widget, browser SDKs), where anyone can read it: it may submit, vote and comment but never change existing items. Leave it off for a secret key kept on your servers."
      />
      <FormActions request={create} submitLabel="Create key" busyLabel="Creating…" />
    </Form>
  );
}
