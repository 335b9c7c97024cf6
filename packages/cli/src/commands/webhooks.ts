/** `signpost webhooks …`: a project's webhook endpoints, their deliveries, redelivery and test messages. */
import { type Command, InvalidArgumentError } from 'commander';
import {
  defined,
  integer,
  oneOf,
  projectContext,
  usageExits,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printPaging, printTable, say } from '../manage/output.ts';
import type { Answer, Body } from '../manage/api.ts';

/** An event an endpoint may choose, as the server's schema lists them. */
type WebhookEvent = NonNullable<Body<'manageCreateWebhook'>['events']>[number];

/** The events an endpoint may choose (the server's list; it refuses any other). */
export const WEBHOOK_EVENTS = [
  'feature.created',
  'feature.status_changed',
  'feature.published',
  'feature.hidden',
  'comment.created',
  'changelog.published',
  'error.new_group',
  'error.regressed',
  'error.alert',
  'translation.missing_key',
  'release.created',
  'feature.shipped',
  'release.health_dropped',
] as const satisfies readonly WebhookEvent[];
// The list above names every event of the schema: a new server event fails the type-check here.
const everyEventListed: [Exclude<WebhookEvent, (typeof WEBHOOK_EVENTS)[number]>] extends [never] ? true : never = true;
void everyEventListed;

type Webhook = Answer<'manageGetWebhook'> & { secret?: string };

type Delivery = Answer<'manageListWebhookDeliveries'>['deliveries'][number];

/** `--events a,b` (or `all`), checked against the known events. */
function events(raw: string): string[] {
  if (raw === 'all') return [...WEBHOOK_EVENTS];
  const list = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = list.filter((name) => !(WEBHOOK_EVENTS as readonly string[]).includes(name));
  if (list.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `Unknown event ${unknown.join(', ')}. ` : ''}Use a comma-separated list of: ${WEBHOOK_EVENTS.join(', ')} (or all).`,
    );
  }
  return [...new Set(list)];
}

function showSecret(hook: Webhook): void {
  say(`Signing secret (shown only now; keep it with the receiver): ${hook.secret}`);
}

export function registerWebhookCommands(program: Command): void {
  const webhooks = usageExits(
    program.command('webhooks').description("A project's webhooks: signed HTTP POSTs when things happen"),
  );
  const hookPath = (base: string, id: string) => `${base}/webhooks/${encodeURIComponent(id)}`;

  withProject(webhooks.command('list').description('Webhook endpoints')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const { webhooks: list } = await client.get<{ webhooks: Webhook[] }>(`${base}/webhooks`);
      if (flags.json) return printJson({ webhooks: list });
      printTable(
        ['id', 'url', 'format', 'enabled', 'events', 'failures'],
        list.map((hook) => [
          hook.id,
          hook.url,
          hook.format,
          hook.enabled,
          hook.events.join(','),
          hook.consecutiveFailures,
        ]),
        'No webhooks.',
      );
    }),
  );

  withProject(
    webhooks
      .command('create')
      .description('Add an endpoint; prints its signing secret, this once')
      .argument('<url>', 'http(s) URL that receives the POSTs')
      .requiredOption('--events <list>', `comma-separated events, or all: ${WEBHOOK_EVENTS.join(', ')}`, events)
      .option(
        '--format <format>',
        'standard (Standard Webhooks JSON), slack (incoming-webhook payload), discord (execute-webhook message) or teams (Workflows Adaptive Card)',
        oneOf(['standard', 'slack', 'discord', 'teams'] as const),
      )
      .option('--description <text>', 'what it is for')
      .option('--disabled', 'create it switched off'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost webhooks create https://example.com/hooks/signpost --events feature.created,comment.created\n  signpost webhooks create https://hooks.slack.com/services/… --events all --format slack',
    )
    .action(
      action(
        async (
          url: string,
          flags: CommonFlags & { events: string[]; format?: string; description?: string; disabled?: boolean },
        ) => {
          const { client, base } = projectContext(flags);
          const hook = await client.post<Webhook>(
            `${base}/webhooks`,
            defined({
              url,
              events: flags.events,
              format: flags.format,
              description: flags.description,
              enabled: flags.disabled ? false : undefined,
            }),
          );
          if (flags.json) return printJson(hook);
          say(`Created webhook ${hook.id} for ${hook.url}.`);
          showSecret(hook);
        },
      ),
    );

  withProject(
    webhooks
      .command('delete')
      .description('Delete an endpoint and its delivery log')
      .argument('<webhookId>', 'webhook id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(hookPath(base, id));
      if (flags.json) return printJson({ deleted: id });
      say(`Deleted webhook ${id}.`);
    }),
  );

  withProject(
    webhooks
      .command('rotate')
      .description('Replace the signing secret (the old one stops at once); prints the new one, this once')
      .argument('<webhookId>', 'webhook id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const hook = await client.post<Webhook>(`${hookPath(base, id)}/rotate-secret`);
      if (flags.json) return printJson(hook);
      say(`Rotated the secret of webhook ${hook.id}.`);
      showSecret(hook);
    }),
  );

  withProject(
    webhooks
      .command('deliveries')
      .description("An endpoint's delivery log, newest first")
      .argument('<webhookId>', 'webhook id')
      .option('--limit <n>', 'how many (default 50, at most 200)', integer('--limit', 1, 200))
      .option('--offset <n>', 'skip this many', integer('--offset')),
  ).action(
    action(async (id: string, flags: CommonFlags & { limit?: number; offset?: number }) => {
      const { client, base } = projectContext(flags);
      const page = await client.get<{ deliveries: Delivery[]; total: number; offset: number }>(
        `${hookPath(base, id)}/deliveries`,
        { limit: flags.limit, offset: flags.offset },
      );
      if (flags.json) return printJson(page);
      printTable(
        ['id', 'event', 'state', 'attempts', 'status', 'ms', 'error', 'created'],
        page.deliveries.map((row) => [
          row.id,
          row.event,
          row.state,
          row.attempts,
          row.statusCode,
          row.responseMs,
          row.error,
          row.createdAt,
        ]),
        'No deliveries yet.',
      );
      printPaging(page.deliveries.length, page.total, page.offset);
    }),
  );

  withProject(
    webhooks
      .command('redeliver')
      .description('Send a delivery again (same webhook-id)')
      .argument('<webhookId>', 'webhook id')
      .argument('<deliveryId>', 'delivery id (see `signpost webhooks deliveries`)'),
  ).action(
    action(async (id: string, deliveryId: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const delivery = await client.post<Delivery>(
        `${hookPath(base, id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
      );
      if (flags.json) return printJson(delivery);
      say(`Queued ${delivery.event} again as delivery ${delivery.id} (webhook-id ${delivery.messageId}).`);
    }),
  );

  withProject(
    webhooks
      .command('test')
      .description('Send a webhook.test message to the endpoint')
      .argument('<webhookId>', 'webhook id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const delivery = await client.post<Delivery>(`${hookPath(base, id)}/test`);
      if (flags.json) return printJson(delivery);
      printFields([
        ['Queued', `test message ${delivery.id}`],
        ['Follow it', `signpost webhooks deliveries ${id}`],
      ]);
    }),
  );
}
