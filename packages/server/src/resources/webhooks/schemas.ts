/** TypeBox schemas of the webhook management routes. */
import { Type } from 'typebox';
import { Paging, StringEnum, Timestamp } from '../../http/common-schemas.ts';
import { NullableString, ProjectParams, pageFields } from '../../http/management-schemas.ts';
import { WEBHOOK_EVENTS } from './events.ts';
import { WEBHOOK_FORMATS } from './format-names.ts';

export const WEBHOOKS_PER_PROJECT_MAX = 20;

export const WebhookParams = Type.Object({
  ...ProjectParams.properties,
  webhookId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const DeliveryParams = Type.Object({
  ...WebhookParams.properties,
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});

const Url = Type.String({
  minLength: 10,
  maxLength: 2000,
  pattern: '^https?://',
  description:
    'An http(s) URL. Loopback and private-network targets are refused unless the server allows them (WEBHOOKS_ALLOW_PRIVATE_TARGETS), checked at every delivery',
});
const EventName = StringEnum(WEBHOOK_EVENTS);
const Events = Type.Array(EventName, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: `The events sent to this endpoint: ${WEBHOOK_EVENTS.join(', ')}`,
});
const Format = StringEnum(WEBHOOK_FORMATS, {
  description:
    'standard: Standard Webhooks JSON {type, timestamp, data}; slack: a Slack incoming-webhook payload; discord: a Discord execute-webhook message (content and one embed); teams: a Microsoft Teams Workflows message with an Adaptive Card',
});
const Description = Type.String({ maxLength: 500 });

export const Webhook = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    url: Type.String(),
    description: NullableString(),
    events: Type.Array(Type.String()),
    format: Format,
    enabled: Type.Boolean(),
    secretHint: Type.String({ description: 'The last characters of the signing secret' }),
    consecutiveFailures: Type.Integer({ description: 'Deliveries given up in a row' }),
    disabledReason: NullableString({ description: 'Why the server disabled it (repeated failure), or null' }),
    disabledAt: NullableString(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const WebhookWithSecret = Type.Object(
  {
    ...Webhook.properties,
    secret: Type.String({
      description: 'The signing secret (whsec_…, Standard Webhooks): shown only now, keep it with the receiver',
    }),
  },
  { additionalProperties: false },
);

export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook) }, { additionalProperties: false });

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Events,
    format: Type.Optional(Format),
    enabled: Type.Optional(Type.Boolean()),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    format: Type.Optional(Format),
    enabled: Type.Optional(Type.Boolean({ description: 'true also clears the failure count of a disabled endpoint' })),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
  },
  { additionalProperties: false, description: 'At least one field' },
);
export const UPDATE_FIELDS = ['url', 'events', 'format', 'enabled', 'description'] as const;

export const Delivery = Type.Object(
  {
    id: Type.String(),
    webhookId: Type.String(),
    messageId: Type.String({ description: 'The webhook-id header: the same for every attempt and a redelivery' }),
    event: Type.String(),
    state: StringEnum(['pending', 'sending', 'delivered', 'failed', 'skipped'] as const),
    attempts: Type.Integer(),
    statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last attempt' }),
    responseMs: Type.Union([Type.Integer(), Type.Null()], { description: 'How long the last attempt took' }),
    error: NullableString({ description: 'Why the last attempt failed' }),
    nextAttemptAt: Type.Union([Timestamp, Type.Null()]),
    lastAttemptAt: Type.Union([Timestamp, Type.Null()]),
    deliveredAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    payload: Type.Unknown({ description: 'The Standard Webhooks body {type, timestamp, data}' }),
  },
  { additionalProperties: false },
);

export const DeliveryList = Type.Object(
  { deliveries: Type.Array(Delivery), ...pageFields },
  { additionalProperties: false },
);

export const DeliveryQuery = Type.Object(Paging(50));
