/**
 * A project's error alert rules (issue 31): the rules (kind, filters, recipients, quiet period),
 * and for admins a form that adds one (new group, regression, or a spike of N events in M
 * minutes; an SDK environment and levels to watch; team members to e-mail; the project's webhooks
 * or not) and a delete per rule. Members read; admins and owners change.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, type Project, unwrap } from '../api/client.ts';
import type { paths } from '../api/schema.gen.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField, CheckboxGroup, SelectField, useRequiredSelection } from '../widgets/fields.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './projects.css';

type Rule =
  paths['/projects/{projectId}/error-alerts']['get']['responses'][200]['content']['application/json']['rules'][number];
type Kind = Rule['kind'];
type Level = 'fatal' | 'error' | 'warning' | 'info' | 'debug';

const alertsKey = (projectId: string) => ['project', projectId, 'error-alerts'] as const;
const KINDS: readonly { value: Kind; label: string }[] = [
  { value: 'new_group', label: 'A new error group' },
  { value: 'regression', label: 'A resolved group regresses' },
  { value: 'spike', label: 'A spike: N events of a group in M minutes' },
];
const LEVELS: readonly { value: Level; description: string }[] = [
  { value: 'fatal', description: 'Crashes' },
  { value: 'error', description: 'Errors' },
  { value: 'warning', description: 'Warnings' },
  { value: 'info', description: 'Messages' },
  { value: 'debug', description: 'Debug messages' },
];

function describe(rule: Rule): string {
  const what =
    rule.kind === 'spike'
      ? `${rule.spikeEvents} events in ${rule.spikeMinutes} min`
      : (KINDS.find((k) => k.value === rule.kind)?.label ?? rule.kind);
  const where = rule.sdkEnvironment ?? 'every environment';
  const levels = rule.levels ? rule.levels.join(', ') : 'every level';
  return `${what} · ${where} · ${levels}`;
}

export default function ProjectAlerts() {
  const project = useProject();
  useTitle(`Error alerts · ${project.name}`);
  const admin = canAdminister(project);
  const queryClient = useQueryClient();
  const rules = useQuery({
    queryKey: alertsKey(project.id),
    queryFn: () =>
      unwrap(api.GET('/projects/{projectId}/error-alerts', { params: { path: { projectId: project.id } } })),
  });
  const remove = useMutation({
    mutationFn: (ruleId: string) =>
      unwrap(
        api.DELETE('/projects/{projectId}/error-alerts/{ruleId}', {
          params: { path: { projectId: project.id, ruleId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertsKey(project.id) }),
  });
  return (
    <section className="stack" aria-labelledby="alerts-title">
      <h1 id="alerts-title">Error alerts</h1>
      <p className="muted">
        A rule e-mails the chosen team members, and posts <code>error.alert</code> to the project's webhooks, when an
        error group of the live keys is new, regresses, or spikes; at most once per rule and group in its quiet period.
      </p>
      <QueryView query={rules} what="alert rules">
        {(data) =>
          data.rules.length === 0 ? (
            <Empty>No alert rules yet.{admin ? ' Add one below.' : ''}</Empty>
          ) : (
            <div className="reports-table-wrap">
              <table className="table" aria-label="Alert rules">
                <thead>
                  <tr>
                    <th scope="col">Rule</th>
                    <th scope="col">When</th>
                    <th scope="col">E-mails</th>
                    <th scope="col">Quiet</th>
                    <th scope="col">Webhooks</th>
                    {admin ? <th scope="col">Actions</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {data.rules.map((rule) => (
                    <tr key={rule.id}>
                      <td>
                        {rule.name}
                        {rule.enabled ? '' : ' (off)'}
                      </td>
                      <td>{describe(rule)}</td>
                      <td>{rule.recipients.length}</td>
                      <td>{rule.quietMinutes} min</td>
                      <td>{rule.webhooks ? 'Yes' : 'No'}</td>
                      {admin ? (
                        <td>
                          <ConfirmButton
                            label="Delete"
                            title={`Delete the rule ${rule.name}?`}
                            variant="danger"
                            onConfirm={() => remove.mutateAsync(rule.id)}
                          >
                            No more alerts are sent for it.
                          </ConfirmButton>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      {remove.error ? <ErrorNote error={remove.error} /> : null}
      {admin ? <CreateRule project={project} /> : null}
    </section>
  );
}

function CreateRule({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ['team', project.teamId, 'members'],
    queryFn: () => unwrap(api.GET('/teams/{teamId}/members', { params: { path: { teamId: project.teamId } } })),
  });
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('new_group');
  const [environment, setEnvironment] = useState('');
  const [events, setEvents] = useState('10');
  const [minutes, setMinutes] = useState('5');
  const [quiet, setQuiet] = useState('60');
  const [webhooks, setWebhooks] = useState<'yes' | 'no'>('yes');
  const levels = useRequiredSelection<Level>(['fatal', 'error'], 'Choose at least one level');
  const [recipients, setRecipients] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/error-alerts', {
          params: { path: { projectId: project.id } },
          body: {
            name: name.trim(),
            kind,
            sdkEnvironment: environment.trim() || null,
            levels: levels.selected,
            ...(kind === 'spike' ? { spikeEvents: Number(events), spikeMinutes: Number(minutes) } : {}),
            quietMinutes: Number(quiet),
            recipients,
            webhooks: webhooks === 'yes',
          },
        }),
      ),
    onSuccess: async () => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: alertsKey(project.id) });
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (levels.check()) create.mutate();
  };
  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="create-rule-title">
      <h2 id="create-rule-title">Add an alert rule</h2>
      <div className="grid-2">
        <Field label="Name" value={name} onChange={setName} isRequired serverError={errors.name} />
        <SelectField label="When" value={kind} options={KINDS} onChange={setKind} error={errors.kind} />
        <Field
          label="SDK environment"
          description="e.g. production; empty: every environment"
          value={environment}
          onChange={setEnvironment}
          serverError={errors.sdkEnvironment}
        />
        <Field
          label="Quiet period (minutes)"
          description="At most one alert per group in this time"
          type="number"
          value={quiet}
          onChange={setQuiet}
          serverError={errors.quietMinutes}
        />
        {kind === 'spike' ? (
          <>
            <Field
              label="Events (N)"
              description="1 to 100"
              type="number"
              value={events}
              onChange={setEvents}
              serverError={errors.spikeEvents}
            />
            <Field
              label="Minutes (M)"
              type="number"
              value={minutes}
              onChange={setMinutes}
              serverError={errors.spikeMinutes}
            />
          </>
        ) : null}
        <SelectField
          label="Webhooks"
          value={webhooks}
          options={[
            { value: 'yes', label: 'Also post error.alert to the webhooks' },
            { value: 'no', label: 'E-mail only' },
          ]}
          onChange={setWebhooks}
        />
      </div>
      <CheckboxGroup legend="Levels" options={LEVELS} selection={levels} serverError={errors.levels} />
      <QueryView query={members} what="the team's members">
        {(data) => (
          <fieldset className="scope-list">
            <legend>E-mail these members</legend>
            {data.members.map((member) => (
              <CheckboxField
                key={member.accountId}
                label={member.name || member.email}
                description={member.email}
                checked={recipients.includes(member.accountId)}
                onChange={(on) =>
                  setRecipients(
                    on ? [...recipients, member.accountId] : recipients.filter((id) => id !== member.accountId),
                  )
                }
              />
            ))}
            {errors.recipients ? (
              <span className="field-error" role="alert">
                {errors.recipients}
              </span>
            ) : null}
          </fieldset>
        )}
      </QueryView>
      {create.error ? <ErrorNote error={create.error} /> : null}
      <div>
        <Button type="submit" busy={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add rule'}
        </Button>
      </div>
    </Form>
  );
}
