/**
 * A project's error alert rules (issue 31): the rules (kind, filters, recipients, quiet period),
 * and for admins a form that adds one (new group, regression, or a spike of N events in M
 * minutes; an SDK environment and levels to watch; team members to e-mail; the project's webhooks
 * or not), and per rule Edit (the same form, filled in, replacing the rule), Mute for 1 hour,
 * 24 hours, 7 days or until unmuted (the rule kept; a timed mute ends by itself at its
 * `mutedUntil`), Unmute, and Delete. Members read; admins and owners change.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
import { DataTable } from '../widgets/data-table.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { type FieldSpec, useFormFields } from '../widgets/form-fields.ts';
import { submitting } from '../widgets/form-request.ts';

type Rule =
  paths['/projects/{projectId}/error-alerts']['get']['responses'][200]['content']['application/json']['rules'][number];
type Kind = Rule['kind'];
type Level = 'fatal' | 'error' | 'warning' | 'info' | 'debug';
type MuteFor = '1h' | '24h' | '7d' | 'forever';
const MUTE_CHOICES: readonly { value: MuteFor; label: string }[] = [
  { value: '1h', label: 'For 1 hour' },
  { value: '24h', label: 'For 24 hours' },
  { value: '7d', label: 'For 7 days' },
  { value: 'forever', label: 'Until unmuted' },
];

/** Whether the rule is muted now: switched off, or muted for a time not yet over. */
const isMuted = (rule: Rule) => !rule.enabled || (rule.mutedUntil !== null && Date.parse(rule.mutedUntil) > Date.now());

/** "Until unmuted", "Until <local time>", or "No". */
function mutedText(rule: Rule): string {
  if (!rule.enabled) return 'Until unmuted';
  if (rule.mutedUntil !== null && Date.parse(rule.mutedUntil) > Date.now()) {
    return `Until ${new Date(rule.mutedUntil).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
  }
  return 'No';
}

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
  const rules = useApiQuery(alertsKey(project.id), () =>
    api.GET('/projects/{projectId}/error-alerts', { params: { path: { projectId: project.id } } }),
  );
  const [editing, setEditing] = useState<Rule | null>(null);
  const mute = useMutation({
    mutationFn: ({ rule, mute }: { rule: Rule; mute: MuteFor | 'off' }) =>
      unwrap(
        api.PUT('/projects/{projectId}/error-alerts/{ruleId}', {
          params: { path: { projectId: project.id, ruleId: rule.id } },
          body: { ...bodyOf(rule), mute },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertsKey(project.id) }),
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
            <DataTable
              label="Alert rules"
              wrapClassName="reports-table-wrap"
              columns={['Rule', 'When', 'E-mails', 'Quiet', 'Webhooks', 'Muted', admin && 'Actions']}
            >
              {data.rules.map((rule) => (
                <tr key={rule.id}>
                  <td>
                    {rule.name}
                    {isMuted(rule) ? ' (muted)' : ''}
                  </td>
                  <td>{describe(rule)}</td>
                  <td>{rule.recipients.length}</td>
                  <td>{rule.quietMinutes} min</td>
                  <td>{rule.webhooks ? 'Yes' : 'No'}</td>
                  <td>{mutedText(rule)}</td>
                  {admin ? (
                    <td>
                      <div className="row">
                        <Button variant="secondary" onPress={() => setEditing(rule)}>
                          Edit<span className="visually-hidden"> {rule.name}</span>
                        </Button>
                        {isMuted(rule) ? (
                          <Button
                            variant="secondary"
                            busy={mute.isPending}
                            onPress={() => mute.mutate({ rule, mute: 'off' })}
                          >
                            Unmute<span className="visually-hidden"> {rule.name}</span>
                          </Button>
                        ) : (
                          <select
                            aria-label={`Mute ${rule.name}`}
                            value=""
                            disabled={mute.isPending}
                            onChange={(event) => {
                              const choice = event.target.value as MuteFor | '';
                              if (choice) mute.mutate({ rule, mute: choice });
                            }}
                          >
                            <option value="">Mute…</option>
                            {MUTE_CHOICES.map((choice) => (
                              <option key={choice.value} value={choice.value}>
                                {choice.label}
                              </option>
                            ))}
                          </select>
                        )}
                        <ConfirmButton
                          label="Delete"
                          title={`Delete the rule ${rule.name}?`}
                          variant="danger"
                          onConfirm={() => remove.mutateAsync(rule.id)}
                        >
                          No more alerts are sent for it.
                        </ConfirmButton>
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
      {remove.error ? <ErrorNote error={remove.error} /> : null}
      {mute.error ? <ErrorNote error={mute.error} /> : null}
      {admin && editing ? (
        <RuleForm key={editing.id} project={project} rule={editing} onDone={() => setEditing(null)} />
      ) : null}
      {admin && !editing ? <RuleForm key="new" project={project} /> : null}
    </section>
  );
}

/** A rule as the API takes it back (PUT replaces it whole). */
function bodyOf(rule: Rule) {
  return {
    name: rule.name,
    kind: rule.kind,
    sdkEnvironment: rule.sdkEnvironment,
    levels: rule.levels as Level[] | null,
    ...(rule.kind === 'spike' ? { spikeEvents: rule.spikeEvents ?? 1, spikeMinutes: rule.spikeMinutes ?? 1 } : {}),
    quietMinutes: rule.quietMinutes,
    recipients: rule.recipients,
    webhooks: rule.webhooks,
    enabled: rule.enabled,
  };
}

/** The rule form's text fields; the API's names where they differ from the form's. */
const RULE_FIELDS = {
  name: { label: 'Name', isRequired: true },
  environment: {
    label: 'SDK environment',
    description: 'e.g. production; empty: every environment',
    errorKey: 'sdkEnvironment',
  },
  quiet: {
    label: 'Quiet period (minutes)',
    description: 'At most one alert per group in this time',
    type: 'number',
    errorKey: 'quietMinutes',
  },
  events: {
    label: 'Events (N)',
    description: 'Every event of the group counts',
    type: 'number',
    errorKey: 'spikeEvents',
  },
  minutes: { label: 'Minutes (M)', type: 'number', errorKey: 'spikeMinutes' },
} satisfies Record<string, FieldSpec>;

/** Adds a rule, or with `rule` edits it (a PUT of the whole rule; its muted state kept). */
function RuleForm({ project, rule, onDone }: { project: Project; rule?: Rule; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const members = useApiQuery(['team', project.teamId, 'members'], () =>
    api.GET('/teams/{teamId}/members', { params: { path: { teamId: project.teamId } } }),
  );
  const form = useFormFields(RULE_FIELDS, {
    name: rule?.name ?? '',
    environment: rule?.sdkEnvironment ?? '',
    events: String(rule?.spikeEvents ?? 10),
    minutes: String(rule?.spikeMinutes ?? 5),
    quiet: String(rule?.quietMinutes ?? 60),
  });
  const { name, environment, events, minutes, quiet } = form.values;
  const [kind, setKind] = useState<Kind>(rule?.kind ?? 'new_group');
  const [webhooks, setWebhooks] = useState<'yes' | 'no'>(rule && !rule.webhooks ? 'no' : 'yes');
  const levels = useRequiredSelection<Level>(
    (rule?.levels as Level[] | null | undefined) ?? (rule ? LEVELS.map((l) => l.value) : ['fatal', 'error']),
    'Choose at least one level',
  );
  const [recipients, setRecipients] = useState<string[]>(rule?.recipients ?? []);
  const create = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        kind,
        sdkEnvironment: environment.trim() || null,
        levels: levels.selected,
        ...(kind === 'spike' ? { spikeEvents: Number(events), spikeMinutes: Number(minutes) } : {}),
        quietMinutes: Number(quiet),
        recipients,
        webhooks: webhooks === 'yes',
        enabled: rule?.enabled ?? true,
      };
      return rule
        ? unwrap(
            api.PUT('/projects/{projectId}/error-alerts/{ruleId}', {
              params: { path: { projectId: project.id, ruleId: rule.id } },
              body,
            }),
          )
        : unwrap(api.POST('/projects/{projectId}/error-alerts', { params: { path: { projectId: project.id } }, body }));
    },
    onSuccess: async () => {
      form.set('name', '');
      await queryClient.invalidateQueries({ queryKey: alertsKey(project.id) });
      onDone?.();
    },
  });
  const errors = fieldErrors(create.error);
  const field = form.bind(errors);
  const submit = submitting(() => create.mutate(), levels.check);
  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="create-rule-title">
      <h2 id="create-rule-title">{rule ? `Edit the rule ${rule.name}` : 'Add an alert rule'}</h2>
      <div className="grid-2">
        <Field {...field('name')} />
        <SelectField label="When" value={kind} options={KINDS} onChange={setKind} error={errors.kind} />
        <Field {...field('environment')} />
        <Field {...field('quiet')} />
        {kind === 'spike' ? (
          <>
            <Field {...field('events')} />
            <Field {...field('minutes')} />
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
          {rule ? (create.isPending ? 'Saving…' : 'Save rule') : create.isPending ? 'Adding…' : 'Add rule'}
        </Button>
        {rule ? (
          <Button variant="secondary" onPress={() => onDone?.()}>
            Cancel
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
