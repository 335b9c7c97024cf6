/**
 * What a feature flag answers for an evaluation context (OpenFeature, issue 17): a typed value per
 * key environment, ordered rules on context attributes (first match wins), a percentage rollout
 * sticky per `targetingKey`, then the flag's value. Pure: the store reads the row, the OFREP
 * surface shapes the answer.
 */
import { createHash } from 'node:crypto';
import semver from 'semver';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';

export type FlagValueType = 'boolean' | 'string' | 'number' | 'object';
export type FlagValue = boolean | string | number | Record<string, unknown>;
export type RuleOperator = 'equals' | 'ends_with' | 'semver_gte';

export interface FlagRule {
  /** A context attribute (e.g. `email`, `appVersion`); `targetingKey` works too. */
  attribute: string;
  operator: RuleOperator;
  value: string;
  /** What a match answers; absent: the flag's value in the key's environment. */
  serve?: FlagValue | undefined;
}

/** The `targeting` column, as stored (JSON). */
export interface FlagTargeting {
  /** The flag's value when on; absent: `true` (a boolean flag is its `enabled`). */
  value?: FlagValue | undefined;
  /** Per key environment, overriding `value`. */
  environmentValues?: Partial<Record<KeyEnvironment, FlagValue>> | undefined;
  /** The answer when off or outside the rollout; absent: `false` for booleans, else the caller's code default. */
  offValue?: FlagValue | undefined;
  /** 0..100 of the targeting keys get the value; absent: everyone. */
  rolloutPercentage?: number | undefined;
  rules?: FlagRule[] | undefined;
}

export interface FlagDefinition {
  key: string;
  enabled: boolean;
  type: FlagValueType;
  targeting: FlagTargeting;
}

export type EvaluationReason = 'STATIC' | 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT';

export interface Evaluation {
  key: string;
  /** Undefined: no value, the SDK uses the code default (OFREP ADR-0006). */
  value: FlagValue | undefined;
  reason: EvaluationReason;
  variant: string;
}

export function parseTargeting(json: string | null | undefined): FlagTargeting {
  if (!json) return {};
  try {
    const parsed = JSON.parse(json) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FlagTargeting) : {};
  } catch {
    return {};
  }
}

/** Whether `value` is of `type` (an object is a plain JSON object, not an array or null). */
export function valueHasType(value: unknown, type: FlagValueType): boolean {
  if (type === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return typeof value === type;
}

/** What is wrong with a flag's type and targeting, or undefined when it is sound. */
export function targetingProblem(type: FlagValueType, targeting: FlagTargeting): string | undefined {
  const typed = (what: string, value: unknown) =>
    value === undefined || valueHasType(value, type) ? undefined : `${what} must be a ${type}`;
  if (type !== 'boolean' && targeting.value === undefined)
    return `A ${type} flag needs a value (only a boolean flag defaults to true)`;
  return (
    typed('value', targeting.value) ??
    typed('environmentValues.live', targeting.environmentValues?.live) ??
    typed('environmentValues.test', targeting.environmentValues?.test) ??
    typed('offValue', targeting.offValue) ??
    (targeting.rules ?? [])
      .map((rule, i) => {
        if (rule.operator === 'semver_gte' && !semver.valid(semver.coerce(rule.value)))
          return `rules[${i}].value must be a version (semver_gte)`;
        return typed(`rules[${i}].serve`, rule.serve);
      })
      .find((problem) => problem !== undefined)
  );
}

/** The bucket 0..99 of a targeting key for a flag: the first 32 bits of SHA-256, mod 100. */
export function rolloutBucket(flagKey: string, targetingKey: string): number {
  return createHash('sha256').update(`${flagKey}:${targetingKey}`).digest().readUInt32BE(0) % 100;
}

function ruleMatches(rule: FlagRule, context: Record<string, unknown>): boolean {
  const attribute = context[rule.attribute];
  if (attribute === undefined || attribute === null || typeof attribute === 'object') return false;
  const text = String(attribute);
  switch (rule.operator) {
    case 'equals':
      return text === rule.value;
    case 'ends_with':
      return text.toLowerCase().endsWith(rule.value.toLowerCase());
    case 'semver_gte': {
      const have = semver.coerce(text);
      const want = semver.coerce(rule.value);
      return have !== null && want !== null && semver.gte(have, want);
    }
    default:
      return false;
  }
}

/** Evaluates one flag for a key environment and an evaluation context (targetingKey and attributes). */
export function evaluateFlag(
  flag: FlagDefinition,
  environment: KeyEnvironment,
  context: Record<string, unknown>,
): Evaluation {
  const { targeting, type } = flag;
  const off = targeting.offValue ?? (type === 'boolean' ? false : undefined);
  if (!flag.enabled) return { key: flag.key, value: off, reason: 'DISABLED', variant: 'off' };
  const on = targeting.environmentValues?.[environment] ?? targeting.value ?? (type === 'boolean' ? true : undefined);
  const rules = targeting.rules ?? [];
  for (const [i, rule] of rules.entries()) {
    if (ruleMatches(rule, context))
      return { key: flag.key, value: rule.serve ?? on, reason: 'TARGETING_MATCH', variant: `rule-${i + 1}` };
  }
  const percentage = targeting.rolloutPercentage;
  if (percentage !== undefined && percentage < 100) {
    const targetingKey = context['targetingKey'];
    // Someone without a targeting key is not in the rollout (they could not keep their answer).
    if (typeof targetingKey !== 'string' || targetingKey === '')
      return { key: flag.key, value: off, reason: 'DEFAULT', variant: 'off' };
    const inside = rolloutBucket(flag.key, targetingKey) < percentage;
    return { key: flag.key, value: inside ? on : off, reason: 'SPLIT', variant: inside ? 'on' : 'off' };
  }
  return { key: flag.key, value: on, reason: rules.length > 0 ? 'DEFAULT' : 'STATIC', variant: 'on' };
}
