/**
 * A project's webhooks: the endpoints (URL, events, format, enabled or disabled after failures),
 * a form that adds one with its events and format and shows its signing secret once, and per
 * endpoint: send a test message, the delivery log (refreshed while open) with redelivery, enable
 * or disable, rotate the secret (shown once), delete. Members read; admins and owners act.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, type Project, unwrap } from '../api/client.ts';
import { formatDate } from '../api/projects.ts';
import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery, type WebhookEvent } from '../api/webhooks.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { ACTIONS, DataTable } from '../widgets/data-table.tsx';
import { CheckboxGroup, SelectField, useRequiredSelection } from '../widgets/fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { ShownOnceCard } from '../widgets/secret.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './projects.css';
import { useApiQuery } from '../api/use-api-query.ts';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';
import { submitting } from '../widgets/form-request.ts';

const FORMAT_LABELS: Record<Webhook['format'], string> = {
  standard: 'Standard Webhooks',
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Teams',
};

/** The formats offered when adding a webhook, in full words (the table uses FORMAT_LABELS). */
const FORMATS: readonly { value: Webhook['format']; label: string }[] = [
  { value: 'standard', label: 'Standard Webhooks JSON' },
  { value: 'slack', label: 'Slack incoming webhook' },
  { value: 'discord', label: 'Discord webhook' },
  { value: 'teams', label: 'Microsoft Teams (Workflows)' },
];

const HOOK_FIELDS = {
  url: { label: 'Endpoint URL', description: 'http(s) URL of your receiver', type: 'url', isRequired: true },
} satisfies Record<string, FieldSpec>;

const hooksKey = (projectId: string) => ['project', projectId, 'webhooks'] as const;
const deliveriesKey = (projectId: string, webhookId: string) =>
  ['project', projectId, 'webhooks', webhookId, 'deliveries'] as const;

export default function ProjectWebhooks() {
  const project = useProject();
  useTitle(`Webhooks · ${project.name}`);
  const admin = canAdminister(project);
  const hooks = useApiQuery(hooksKey(project.id), () =>
    api.GET('/projects/{projectId}/webhooks', { params: { path: { projectId: project.id } } }),
  );
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="stack" aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p className="muted">
        Signpost POSTs a signed JSON message (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>
        , <code>webhook-signature</code>) to each endpoint when one of its events happens, retrying for about a day. An
        endpoint that keeps failing is disabled and the team is e-mailed.
      </p>
      {secret ? (
        <ShownOnceCard
          title={secret.title}
          label="The signing secret"
          value={secret.value}
          onDone={() => setSecret(null)}
        />
      ) : null}
      <section className="stack" aria-labelledby="hook-list-title">
        <h2 id="hook-list-title">Endpoints</h2>
        <QueryView query={hooks} what="webhooks">
          {(data) =>
            data.webhooks.length === 0 ? (
              <Empty>No webhooks yet.{admin ? ' Add one below.' : ''}</Empty>
            ) : (
              <HookTable
                project={project}
                hooks={data.webhooks}
                admin={admin}
                open={open}
                onOpen={setOpen}
                onSecret={setSecret}
              />
            )
          }
        </QueryView>
      </section>
      {open ? <Deliveries project={project} webhookId={open} admin={admin} /> : null}
      {admin ? (
        <CreateHook
          project={project}
          onCreated={(hook) => setSecret({ title: `Signing secret of ${hook.url}`, value: hook.secret })}
        />
      ) : (
        <p className="muted">Admins and owners of this project’s team add and change webhooks.</p>
      )}
    </section>
  );
}

function HookTable({
  project,
  hooks,
  admin,
  open,
  onOpen,
  onSecret,
}: {
  project: Project;
  hooks: Webhook[];
  admin: boolean;
  open: string | null;
  onOpen: (id: string | null) => void;
  onSecret: (secret: { title: string; value: string }) => void;
}) {
  const queryClient = useQueryClient();
  const path = (webhookId: string) => ({ params: { path: { projectId: project.id, webhookId } } });
  const refresh = async (webhookId?: string) => {
    await queryClient.invalidateQueries({ queryKey: hooksKey(project.id) });
    if (webhookId) await queryClient.invalidateQueries({ queryKey: deliveriesKey(project.id, webhookId) });
  };
  const test = useMutation({
    mutationFn: (hook: Webhook) => unwrap(api.POST('/projects/{projectId}/webhooks/{webhookId}/test', path(hook.id))),
    onSuccess: async (_, hook) => {
      onOpen(hook.id);
      await refresh(hook.id);
    },
  });
  const toggle = useMutation({
    mutationFn: (hook: Webhook) =>
      unwrap(
        api.PATCH('/projects/{projectId}/webhooks/{webhookId}', { ...path(hook.id), body: { enabled: !hook.enabled } }),
      ),
    onSuccess: () => refresh(),
  });
  return (
    <>
      <DataTable
        className="webhooks-table"
        caption={`Webhooks of ${project.name}`}
        columns={['Endpoint', 'Events', 'State', ACTIONS]}
      >
        {hooks.map((hook) => (
          <tr key={hook.id}>
            <td>
              <div className="code">{hook.url}</div>
              <div className="row">
                <span className="badge">{FORMAT_LABELS[hook.format]}</span>
                <span className="muted">secret {hook.secretHint}</span>
              </div>
              {hook.description ? <div className="muted">{hook.description}</div> : null}
            </td>
            <td>{hook.events.join(', ')}</td>
            <td>
              <span className={`badge ${hook.enabled ? 'badge-ok' : 'badge-warn'}`}>
                {hook.enabled ? 'Enabled' : 'Disabled'}
              </span>
              {hook.disabledReason ? <div className="muted">Disabled after failures: {hook.disabledReason}</div> : null}
            </td>
            <td>
              <div className="row">
                <Button variant="quiet" onPress={() => onOpen(open === hook.id ? null : hook.id)}>
                  {open === hook.id ? 'Hide deliveries' : 'Deliveries'}
                </Button>
                {admin ? (
                  <>
                    <Button variant="quiet" onPress={() => test.mutate(hook)} busy={test.isPending}>
                      Send test
                    </Button>
                    <Button variant="quiet" onPress={() => toggle.mutate(hook)} busy={toggle.isPending}>
                      {hook.enabled ? 'Disable' : 'Enable'}
                    </Button>
                    <ConfirmButton
                      label="Rotate secret"
                      title="Rotate the signing secret?"
                      confirmLabel="Rotate secret"
                      onConfirm={async () => {
                        const rotated = await unwrap(
                          api.POST('/projects/{projectId}/webhooks/{webhookId}/rotate-secret', path(hook.id)),
                        );
                        onSecret({ title: `New signing secret of ${hook.url}`, value: rotated.secret });
                        await refresh();
                      }}
                    >
                      Messages are signed with a new secret from now on; the receiver must be given it.
                    </ConfirmButton>
                    <ConfirmButton
                      label="Delete"
                      title="Delete this webhook?"
                      confirmLabel="Delete webhook"
                      variant="danger"
                      onConfirm={async () => {
                        await unwrap(api.DELETE('/projects/{projectId}/webhooks/{webhookId}', path(hook.id)));
                        if (open === hook.id) onOpen(null);
                        await refresh();
                      }}
                    >
                      <span className="code">{hook.url}</span> gets no more messages, and its delivery log is deleted.
                    </ConfirmButton>
                  </>
                ) : null}
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      {test.error ? <ErrorNote error={test.error} /> : null}
      {toggle.error ? <ErrorNote error={toggle.error} /> : null}
    </>
  );
}

function Deliveries({ project, webhookId, admin }: { project: Project; webhookId: string; admin: boolean }) {
  const queryClient = useQueryClient();
  const deliveries = useApiQuery(
    deliveriesKey(project.id, webhookId),
    () =>
      api.GET('/projects/{projectId}/webhooks/{webhookId}/deliveries', {
        params: { path: { projectId: project.id, webhookId } },
      }),
    { refetchInterval: 2000 },
  );
  const redeliver = useMutation({
    mutationFn: (delivery: WebhookDelivery) =>
      unwrap(
        api.POST('/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { projectId: project.id, webhookId, deliveryId: delivery.id } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(project.id, webhookId) }),
  });
  return (
    <section className="stack" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <QueryView query={deliveries} what="deliveries">
        {(data) =>
          data.deliveries.length === 0 ? (
            <Empty>No deliveries yet.</Empty>
          ) : (
            <DataTable
              caption="Delivery log, newest first"
              columns={['Event', 'State', 'Attempts', 'Response', 'Error', 'Created', admin && ACTIONS]}
            >
              {data.deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td className="code">{delivery.event}</td>
                  <td>
                    <span
                      className={`badge ${delivery.state === 'delivered' ? 'badge-ok' : delivery.state === 'failed' ? 'badge-warn' : ''}`}
                    >
                      {delivery.state}
                    </span>
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>
                    {delivery.statusCode ?? '—'}
                    {delivery.responseMs !== null ? ` in ${delivery.responseMs} ms` : ''}
                  </td>
                  <td>{delivery.error ?? ''}</td>
                  <td>{formatDate(delivery.createdAt)}</td>
                  {admin ? (
                    <td>
                      <Button
                        variant="quiet"
                        onPress={() => redeliver.mutate(delivery)}
                        aria-label={`Redeliver ${delivery.event} ${delivery.id}`}
                      >
                        Redeliver
                      </Button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
      {redeliver.error ? <ErrorNote error={redeliver.error} /> : null}
    </section>
  );
}

function CreateHook({
  project,
  onCreated,
}: {
  project: Project;
  onCreated: (hook: Webhook & { secret: string }) => void;
}) {
  const queryClient = useQueryClient();
  const form = useFormFields(HOOK_FIELDS, { url: '' });
  const url = form.values.url;
  const [format, setFormat] = useState<Webhook['format']>('standard');
  const events = useRequiredSelection<WebhookEvent>(
    ['feature.created', 'comment.created'],
    'Choose at least one event',
  );
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/webhooks', {
          params: { path: { projectId: project.id } },
          body: { url: url.trim(), events: events.selected, format },
        }),
      ),
    onSuccess: async (made) => {
      onCreated(made);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: hooksKey(project.id) });
    },
  });
  const errors = fieldErrors(create.error);
  const field = form.bind(errors);
  const submit = submitting(() => create.mutate(), events.check);
  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="create-hook-title">
      <h2 id="create-hook-title">Add a webhook</h2>
      <div className="grid-2">
        <Field {...field('url')} />
        <SelectField label="Format" value={format} options={FORMATS} onChange={setFormat} error={errors.format} />
      </div>
      <CheckboxGroup
        legend="Events"
        options={WEBHOOK_EVENTS.map(({ event, description }) => ({ value: event, description }))}
        selection={events}
        serverError={errors.events}
      />
      <FormActions request={create} submitLabel="Add webhook" busyLabel="Adding…" />
    </Form>
  );
}
