/** The pure flag evaluator (src/resources/site-config/flag-targeting.ts), without a server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  evaluateFlag,
  type FlagDefinition,
  parseTargeting,
  rolloutBucket,
  targetingProblem,
} from '../../../src/resources/site-config/flag-targeting.ts';

const flag = (over: Partial<FlagDefinition> = {}): FlagDefinition => ({
  key: 'new-editor',
  enabled: true,
  type: 'boolean',
  targeting: {},
  ...over,
});

describe('flag targeting', () => {
  it('answers a bare boolean flag true when on and false when off', () => {
    assert.deepEqual(evaluateFlag(flag(), 'live', {}), {
      key: 'new-editor',
      value: true,
      reason: 'STATIC',
      variant: 'on',
    });
    assert.deepEqual(evaluateFlag(flag({ enabled: false }), 'live', {}), {
      key: 'new-editor',
      value: false,
      reason: 'DISABLED',
      variant: 'off',
    });
  });

  it('leaves a non-boolean flag that is off without a value (the SDK uses its code default)', () => {
    const off = evaluateFlag(flag({ type: 'string', enabled: false, targeting: { value: 'blue' } }), 'live', {});
    assert.equal(off.value, undefined);
    assert.equal(off.reason, 'DISABLED');
  });

  it('prefers the key environment’s value over the flag’s value', () => {
    const colour = flag({ type: 'string', targeting: { value: 'blue', environmentValues: { test: 'red' } } });
    assert.equal(evaluateFlag(colour, 'live', {}).value, 'blue');
    assert.equal(evaluateFlag(colour, 'test', {}).value, 'red');
  });

  it('matches rules in order, first match wins, and serves the rule’s value or the flag’s', () => {
    const ruled = flag({
      type: 'string',
      targeting: {
        value: 'standard',
        rules: [
          { attribute: 'email', operator: 'ends_with', value: '@ACME.com', serve: 'staff' },
          { attribute: 'appVersion', operator: 'semver_gte', value: '2.0' },
          { attribute: 'plan', operator: 'equals', value: 'pro', serve: 'pro' },
        ],
      },
    });
    assert.deepEqual(evaluateFlag(ruled, 'live', { email: 'ann@acme.COM', plan: 'pro' }), {
      key: 'new-editor',
      value: 'staff',
      reason: 'TARGETING_MATCH',
      variant: 'rule-1',
    });
    assert.equal(evaluateFlag(ruled, 'live', { appVersion: 'v2.1.0-beta' }).variant, 'rule-2');
    assert.equal(evaluateFlag(ruled, 'live', { appVersion: 'v2.1.0-beta' }).value, 'standard');
    assert.equal(evaluateFlag(ruled, 'live', { appVersion: '1.9.9' }).reason, 'DEFAULT');
    assert.equal(evaluateFlag(ruled, 'live', { plan: 'pro' }).value, 'pro');
    // An object attribute never matches (no accidental "[object Object]").
    assert.equal(evaluateFlag(ruled, 'live', { plan: { name: 'pro' } }).reason, 'DEFAULT');
  });

  it('rolls out by a sticky bucket of the targeting key, and leaves out callers without one', () => {
    const half = flag({ targeting: { rolloutPercentage: 50 } });
    const inside = Array.from({ length: 1000 }, (_, i) => evaluateFlag(half, 'live', { targetingKey: `user-${i}` }));
    const share = inside.filter((evaluation) => evaluation.value === true).length / 1000;
    assert.ok(share > 0.44 && share < 0.56, `share ${share}`);
    for (const evaluation of inside) assert.equal(evaluation.reason, 'SPLIT');
    assert.deepEqual(evaluateFlag(half, 'live', { targetingKey: 'user-7' }), inside[7]);
    assert.equal(rolloutBucket('new-editor', 'user-7'), rolloutBucket('new-editor', 'user-7'));
    assert.deepEqual(evaluateFlag(half, 'live', {}), {
      key: 'new-editor',
      value: false,
      reason: 'DEFAULT',
      variant: 'off',
    });
    assert.equal(
      evaluateFlag(flag({ targeting: { rolloutPercentage: 0 } }), 'live', { targetingKey: 'a' }).value,
      false,
    );
  });

  it('names what is wrong with a flag’s type and targeting', () => {
    assert.equal(targetingProblem('boolean', {}), undefined);
    assert.match(targetingProblem('string', {}) ?? '', /needs a value/);
    assert.match(targetingProblem('number', { value: '3' }) ?? '', /value must be a number/);
    assert.match(targetingProblem('object', { value: [] as never }) ?? '', /value must be a object/);
    assert.match(
      targetingProblem('boolean', { rules: [{ attribute: 'v', operator: 'semver_gte', value: 'soon' }] }) ?? '',
      /rules\[0\]\.value must be a version/,
    );
    assert.match(
      targetingProblem('boolean', { rules: [{ attribute: 'v', operator: 'equals', value: 'x', serve: 'yes' }] }) ?? '',
      /rules\[0\]\.serve must be a boolean/,
    );
  });

  it('reads a stored targeting column, and anything unreadable as none', () => {
    assert.deepEqual(parseTargeting('{"value":true}'), { value: true });
    for (const stored of [null, undefined, '', 'not json', '[1,2]', 'null'])
      assert.deepEqual(parseTargeting(stored), {});
  });
});
