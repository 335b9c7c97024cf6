/** One feature flag's targeting form: value type, per-environment values, rollout and rules. */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../api/client.ts';
import type { FeatureFlag, FlagInput } from '../api/site-config.ts';
import { Field } from '../ui.tsx';
import { SelectField } from '../widgets/fields.tsx';
import { useRefresh } from './site-config-refresh.ts';
import { FormActions } from '../widgets/form-actions.tsx';

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
export function FlagTargeting({ projectId, flag, admin }: { projectId: string; flag: FeatureFlag; admin: boolean }) {
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
        <FormActions request={save} submitLabel={`Save targeting of ${flag.key}`} busyLabel="Saving…" done="Saved." />
      </Form>
    </details>
  );
}
