/**
 * The shapes of an error alert rule (issue 31): the body a surface sends (the management API's
 * POST/PUT, MCP's set_alert `rule`, checked with the same schema) and the rule answered.
 */
import { Type } from 'typebox';
import { StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { ALERT_LEVELS, MUTE_CHOICES, SPIKE_EVENTS_MAX, SPIKE_MINUTES_MAX } from './alert-rules.ts';
import { DEFAULT_QUIET_MINUTES } from './alerts.ts';
import { ALERT_KINDS } from './store-alerts.ts';

export const RuleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    kind: StringEnum(ALERT_KINDS, {
      description: 'new_group, regression, or spike (N events of a group in M minutes)',
    }),
    sdkEnvironment: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
        description: "The SDK environment watched (e.g. 'production'); null or absent: every one",
      }),
    ),
    levels: Type.Optional(
      Type.Union([Type.Array(StringEnum(ALERT_LEVELS), { maxItems: 5, uniqueItems: true }), Type.Null()], {
        description: 'The levels watched; null, absent or empty: every level',
      }),
    ),
    spikeEvents: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SPIKE_EVENTS_MAX,
        description: 'Spike: events of one group (N), every event counted',
      }),
    ),
    spikeMinutes: Type.Optional(
      Type.Integer({ minimum: 1, maximum: SPIKE_MINUTES_MAX, description: 'Spike: the window (M)' }),
    ),
    quietMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_080,
        description: `At most one alert per rule and group within this many minutes (default ${DEFAULT_QUIET_MINUTES})`,
      }),
    ),
    recipients: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      uniqueItems: true,
      description: 'Account ids of team members to e-mail',
    }),
    webhooks: Type.Optional(
      Type.Boolean({ description: "Also send error.alert to the project's webhooks (default true)" }),
    ),
    enabled: Type.Optional(Type.Boolean()),
    mute: Type.Optional(
      StringEnum(MUTE_CHOICES, {
        description:
          'Mute for 1h, 24h or 7d from now (mutedUntil), until unmuted (forever: enabled false), or unmute (off)',
      }),
    ),
    mutedUntil: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()], {
        description: 'Muted until this time; null: not muted for a time; absent on a replacement: kept',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Rule = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    name: Type.String(),
    kind: StringEnum(ALERT_KINDS),
    sdkEnvironment: Type.Union([Type.String(), Type.Null()]),
    levels: Type.Union([Type.Array(Type.String()), Type.Null()]),
    spikeEvents: Type.Union([Type.Integer(), Type.Null()]),
    spikeMinutes: Type.Union([Type.Integer(), Type.Null()]),
    quietMinutes: Type.Integer(),
    recipients: Type.Array(Type.String()),
    webhooks: Type.Boolean(),
    enabled: Type.Boolean(),
    mutedUntil: Type.Union([Timestamp, Type.Null()], {
      description: 'Muted until this time (the alert worker skips it)',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false, title: 'ErrorAlertRule' },
);
