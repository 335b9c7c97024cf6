/** The site-config screen's maintenance, feature-flag and debug-mode tabs. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../api/client.ts';
import {
  type FeatureFlag,
  type FlagInput,
  formatWhen,
  fromLocalInput,
  lines,
  MAINTENANCE_TYPES,
  type Maintenance,
  type MaintenanceUpdate,
  siteConfigKey,
  toLocalInput,
} from '../api/site-config.ts';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { CheckboxField, SelectField, TextAreaField } from '../widgets/fields.tsx';
import { Empty } from '../widgets/states.tsx';

/** After a save: the configuration and the public answer are read again. */
export function useRefresh(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: siteConfigKey(projectId) });
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** Custom HTML as the app would show it, in a frame that runs no script and reaches nothing. */
function HtmlPreview({ html }: { html: string }) {
  return (
    <div className="stack html-preview-block">
      <h3 id="maintenance-preview-title">Preview of the custom page</h3>
      <p className="muted">
        Shown without scripts (they never run here); styles and images from elsewhere are left out.
      </p>
      <iframe
        className="html-preview"
        title="Preview of the custom maintenance page"
        sandbox=""
        srcDoc={html}
        aria-describedby="maintenance-preview-title"
      />
    </div>
  );
}

export function MaintenanceSection({
  projectId,
  maintenance,
  admin,
}: {
  projectId: string;
  maintenance: Maintenance;
  admin: boolean;
}) {
  return (
    <>
      <h2>Maintenance</h2>
      <p className={maintenance.enabled ? 'note note-warn' : 'muted'}>
        {maintenance.enabled
          ? `Maintenance is on (${maintenance.type}): apps show it now.`
          : 'Maintenance is off: apps work as usual.'}
      </p>
      {admin ? (
        <MaintenanceForm projectId={projectId} maintenance={maintenance} />
      ) : (
        <MaintenanceFacts maintenance={maintenance} />
      )}
    </>
  );
}

function MaintenanceFacts({ maintenance }: { maintenance: Maintenance }) {
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : '—');
  return (
    <>
      <dl className="facts">
        <dt>On</dt>
        <dd>{yesNo(maintenance.enabled)}</dd>
        <dt>Type</dt>
        <dd>{MAINTENANCE_TYPES.find((t) => t.value === maintenance.type)?.label ?? maintenance.type}</dd>
        <dt>Expected restoration</dt>
        <dd>{formatWhen(maintenance.expectedRestoration)}</dd>
        <dt>Status link</dt>
        <dd>{maintenance.showStatusLink ? (maintenance.statusPageUrl ?? 'Shown') : 'Not shown'}</dd>
        <dt>Allowed IPs</dt>
        <dd>{list(maintenance.whitelist.ips)}</dd>
        <dt>Allowed e-mails</dt>
        <dd>{list(maintenance.whitelist.emails)}</dd>
        <dt>Allowed local-storage keys</dt>
        <dd>{list(maintenance.whitelist.localStorageKeys)}</dd>
      </dl>
      {maintenance.customHtml ? <HtmlPreview html={maintenance.customHtml} /> : null}
    </>
  );
}

/** The first error the API gave for a field or anything inside it (`whitelist/ips/1`, `whitelist.ips.1`). */
function errorUnder(errors: Record<string, string>, field: string): string | undefined {
  const key = Object.keys(errors).find((name) => name.replace(/\//g, '.').startsWith(field));
  return key === undefined ? undefined : errors[key];
}

function MaintenanceForm({ projectId, maintenance }: { projectId: string; maintenance: Maintenance }) {
  const refresh = useRefresh(projectId);
  const [enabled, setEnabled] = useState(maintenance.enabled);
  const [type, setType] = useState<Maintenance['type']>(maintenance.type);
  const [customHtml, setCustomHtml] = useState(maintenance.customHtml ?? '');
  const [restoration, setRestoration] = useState(toLocalInput(maintenance.expectedRestoration));
  const [restorationError, setRestorationError] = useState<string>();
  const [showStatusLink, setShowStatusLink] = useState(maintenance.showStatusLink);
  const [statusPageUrl, setStatusPageUrl] = useState(maintenance.statusPageUrl ?? '');
  const [ips, setIps] = useState(maintenance.whitelist.ips.join('\n'));
  const [emails, setEmails] = useState(maintenance.whitelist.emails.join('\n'));
  const [keys, setKeys] = useState(maintenance.whitelist.localStorageKeys.join('\n'));
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (body: MaintenanceUpdate) =>
      unwrap(api.PATCH('/projects/{projectId}/site-config/maintenance', { params: { path: { projectId } }, body })),
    onSuccess: async () => {
      setSaved(true);
      await refresh();
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const expectedRestoration = fromLocalInput(restoration);
    if (expectedRestoration === 'invalid') {
      setRestorationError('Enter a date and time, or leave it empty');
      return;
    }
    setRestorationError(undefined);
    save.mutate({
      enabled,
      type,
      customHtml: customHtml.trim() === '' ? null : customHtml,
      expectedRestoration,
      showStatusLink,
      statusPageUrl: statusPageUrl.trim() === '' ? null : statusPageUrl.trim(),
      whitelist: { ips: lines(ips), emails: lines(emails), localStorageKeys: lines(keys) },
    });
  };
  return (
    <Form className="stack" onSubmit={submit} aria-label="Maintenance settings">
      <CheckboxField
        label="Maintenance on"
        checked={enabled}
        onChange={setEnabled}
        description="Apps show maintenance to everyone not allowed below."
      />
      <SelectField label="Type" value={type} options={MAINTENANCE_TYPES} onChange={setType} error={errors.type} />
      <TextAreaField
        label="Custom HTML"
        description="Shown by the app as is in the custom type; scripts are your app’s business, the preview runs none."
        value={customHtml}
        onChange={setCustomHtml}
        rows={6}
        error={errors.customHtml}
      />
      {customHtml.trim() !== '' ? <HtmlPreview html={customHtml} /> : null}
      <div className="grid-2">
        <Field
          label="Expected restoration"
          description="In your time zone; empty: not said"
          type="datetime-local"
          value={restoration}
          onChange={(value) => {
            setRestoration(value);
            setRestorationError(undefined);
          }}
          serverError={restorationError ?? errors.expectedRestoration}
        />
        <Field
          label="Status page URL"
          description="http(s) address; empty: none"
          type="url"
          value={statusPageUrl}
          onChange={setStatusPageUrl}
          serverError={errors.statusPageUrl}
        />
      </div>
      <CheckboxField label="Show the status link" checked={showStatusLink} onChange={setShowStatusLink} />
      <fieldset className="stack whitelist">
        <legend>Allowed through maintenance (one a line)</legend>
        <div className="grid-3">
          <TextAreaField
            label="IP addresses"
            description="IPv4 or IPv6, optionally with a /prefix"
            value={ips}
            onChange={setIps}
            error={errorUnder(errors, 'whitelist.ips')}
          />
          <TextAreaField
            label="E-mail addresses"
            value={emails}
            onChange={setEmails}
            error={errorUnder(errors, 'whitelist.emails')}
          />
          <TextAreaField
            label="Local-storage keys"
            description="A device with this key set gets through"
            value={keys}
            onChange={setKeys}
            error={errorUnder(errors, 'whitelist.localStorageKeys')}
          />
        </div>
      </fieldset>
      {save.error ? <ErrorNote error={save.error} /> : null}
      {saved && !save.isPending ? <Note>Maintenance saved.</Note> : null}
      <div>
        <Button type="submit" busy={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save maintenance'}
        </Button>
      </div>
    </Form>
  );
}

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
    </li>
  );
}

type ValueType = FeatureFlag['type'];
type RuleOperator = FeatureFlag['rules'][number]['operator'];

const VALUE_TYPES: readonly { value: ValueType; label: string }[] = [
  { value: 'boolean', label: 'Boolean (on/off)' },
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'object', label: 'JSON object' },
];
const OPERATORS: readonly { value: RuleOperator; label: string }[] = [
  { value: 'ends_with', label: 'ends with' },
  { value: 'equals', label: 'equals' },
  { value: 'semver_gte', label: 'version at least' },
];

/** A value as typed in a field: text as it is, other types as JSON (`true`, `42`, `{"max": 5}`). */
const showValue = (value: unknown, type: ValueType) =>
  value === undefined || value === null ? '' : type === 'string' ? String(value) : JSON.stringify(value);

function parseValue(text: string, type: ValueType, what: string): unknown {
  if (text.trim() === '') return undefined;
  if (type === 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what}: not a ${type === 'object' ? 'JSON object' : type}`);
  }
}

interface RuleDraft {
  /** Which of the two rule slots (a stable React key). */
  slot: string;
  attribute: string;
  operator: RuleOperator;
  value: string;
  serve: string;
}

/** Per-environment values, the rollout and up to two rules of one flag (what OpenFeature evaluates). */
function FlagTargeting({ projectId, flag, admin }: { projectId: string; flag: FeatureFlag; admin: boolean }) {
  const refresh = useRefresh(projectId);
  const [type, setType] = useState<ValueType>(flag.type);
  const [live, setLive] = useState(showValue(flag.environmentValues.live ?? flag.value, flag.type));
  const [test, setTest] = useState(showValue(flag.environmentValues.test, flag.type));
  const [rollout, setRollout] = useState(flag.rolloutPercentage === null ? '' : String(flag.rolloutPercentage));
  const [rules, setRules] = useState<RuleDraft[]>(
    [0, 1].map((i) => {
      const rule = flag.rules[i];
      return {
        slot: `rule-${i + 1}`,
        attribute: rule?.attribute ?? '',
        operator: rule?.operator ?? 'ends_with',
        value: rule?.value ?? '',
        serve: showValue(rule?.serve, flag.type),
      };
    }),
  );
  const save = useMutation({
    mutationFn: () => {
      const liveValue = parseValue(live, type, 'Value for live keys');
      const testValue = parseValue(test, type, 'Value for test keys');
      const percentage = rollout.trim() === '' ? null : Number(rollout);
      if (percentage !== null && !(Number.isInteger(percentage) && percentage >= 0 && percentage <= 100))
        throw new Error('Rollout: a whole percentage from 0 to 100, or empty for everyone');
      const body = {
        enabled: flag.enabled,
        type,
        ...(liveValue === undefined ? {} : { value: liveValue }),
        environmentValues: testValue === undefined ? {} : { test: testValue },
        rolloutPercentage: percentage,
        rules: rules
          .filter((rule) => rule.attribute.trim() !== '' && rule.value.trim() !== '')
          .map((rule, i) => {
            const serve = parseValue(rule.serve, type, `Rule ${i + 1}, value served`);
            return {
              attribute: rule.attribute.trim(),
              operator: rule.operator,
              value: rule.value.trim(),
              ...(serve === undefined ? {} : { serve }),
            };
          }),
      } as FlagInput;
      return unwrap(
        api.PUT('/projects/{projectId}/site-config/flags/{flagKey}', {
          params: { path: { projectId, flagKey: flag.key } },
          body,
        }),
      );
    },
    onSuccess: () => refresh(),
  });
  const summary = [
    VALUE_TYPES.find((t) => t.value === flag.type)?.label ?? flag.type,
    flag.rolloutPercentage === null ? 'everyone' : `${flag.rolloutPercentage} % rollout`,
    `${flag.rules.length} rule${flag.rules.length === 1 ? '' : 's'}`,
  ].join(' · ');
  if (!admin) return <p className="muted flag-targeting">{summary}</p>;
  const setRule = (i: number, change: Partial<RuleDraft>) =>
    setRules((all) => all.map((rule, j) => (j === i ? { ...rule, ...change } : rule)));
  return (
    <details className="flag-targeting">
      <summary>Targeting: {summary}</summary>
      <Form
        className="stack"
        aria-label={`Targeting of ${flag.key}`}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <SelectField label="Value type" value={type} options={VALUE_TYPES} onChange={setType} />
        <div className="row">
          <Field
            label="Value for live keys"
            description={type === 'boolean' ? 'Empty: true when on' : 'Text as is; numbers and objects as JSON'}
            value={live}
            onChange={setLive}
          />
          <Field label="Value for test keys" description="Empty: the live value" value={test} onChange={setTest} />
          <Field
            label="Rollout percentage"
            description="Sticky per targetingKey; empty: everyone"
            inputMode="numeric"
            value={rollout}
            onChange={setRollout}
          />
        </div>
        {rules.map((rule, i) => (
          <fieldset key={rule.slot} className="row">
            <legend>Rule {i + 1} (first match wins)</legend>
            <Field
              label="Context attribute"
              description="e.g. email, appVersion"
              value={rule.attribute}
              onChange={(attribute) => setRule(i, { attribute })}
            />
            <SelectField
              label="Condition"
              value={rule.operator}
              options={OPERATORS}
              onChange={(operator) => setRule(i, { operator })}
            />
            <Field label="Compared with" value={rule.value} onChange={(value) => setRule(i, { value })} />
            <Field
              label="Serves"
              description="Empty: the value"
              value={rule.serve}
              onChange={(serve) => setRule(i, { serve })}
            />
          </fieldset>
        ))}
        {save.error ? <ErrorNote error={save.error} /> : null}
        {save.isSuccess ? <Note>Saved.</Note> : null}
        <div>
          <Button type="submit" busy={save.isPending}>
            {save.isPending ? 'Saving…' : `Save targeting of ${flag.key}`}
          </Button>
        </div>
      </Form>
    </details>
  );
}

function NewFlag({ projectId }: { projectId: string }) {
  const refresh = useRefresh(projectId);
  const [key, setKey] = useState('');
  const [enabled, setEnabled] = useState(false);
  const [keyError, setKeyError] = useState<string>();
  const create = useMutation({
    mutationFn: () => setFlag(projectId, key.trim(), enabled),
    onSuccess: async () => {
      setKey('');
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
  return (
    <Form className="stack new-flag" onSubmit={submit} aria-labelledby="new-flag-title">
      <h3 id="new-flag-title">New flag</h3>
      <div className="row">
        <Field
          label="Key"
          description="e.g. new-checkout"
          value={key}
          onChange={(value) => {
            setKey(value);
            setKeyError(undefined);
          }}
          serverError={keyError ?? fieldErrors(create.error).flagKey}
        />
        <CheckboxField label="On from the start" checked={enabled} onChange={setEnabled} />
      </div>
      {create.error ? <ErrorNote error={create.error} /> : null}
      <div>
        <Button type="submit" busy={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add flag'}
        </Button>
      </div>
    </Form>
  );
}

export function DebugSection({
  projectId,
  debugMode,
  admin,
}: {
  projectId: string;
  debugMode: boolean;
  admin: boolean;
}) {
  const refresh = useRefresh(projectId);
  const [on, setOn] = useState(debugMode);
  const save = useMutation({
    mutationFn: (next: boolean) =>
      unwrap(
        api.PATCH('/projects/{projectId}/site-config', { params: { path: { projectId } }, body: { debugMode: next } }),
      ),
    onMutate: (next) => setOn(next),
    onError: () => setOn(debugMode),
    onSuccess: () => refresh(),
  });
  return (
    <>
      <h2>Debug mode</h2>
      <p className="muted">
        Tells every app of this project to turn on its debugging aids (more logging, diagnostics). Each environment also
        has its own debug switch.
      </p>
      {admin ? (
        <CheckboxField label="Debug mode on" checked={on} onChange={save.mutate} />
      ) : (
        <p>
          Debug mode is <strong>{on ? 'on' : 'off'}</strong>.
        </p>
      )}
      {save.error ? <ErrorNote error={save.error} /> : null}
    </>
  );
}
