/**
 * Discord and Microsoft Teams payloads for webhook endpoints (issue 36). Both are built from one
 * neutral message (what happened, the item's title, a link back to the dashboard, a few facts), so
 * the three chat formats say the same thing in each platform's layout.
 *
 * - Discord: the execute-webhook JSON body (`content` up to 2000 characters, at most 10 embeds,
 *   embed title 256, description 4096, field name 256 / value 1024, at most 25 fields, 6000
 *   characters over all embeds; https://discord.com/developers/docs/resources/webhook#execute-webhook).
 *   `allowed_mentions: {parse: []}` so a title like "@everyone" pings no one.
 * - Teams: the Workflows ("Send webhook alerts to a channel") message shape, which replaced the
 *   retired Office 365 connectors' MessageCard: `{type: "message", attachments: [{contentType:
 *   "application/vnd.microsoft.card.adaptive", content: <Adaptive Card 1.4>}]}` with the link as
 *   an `Action.OpenUrl`.
 */
import type { WebhookBody } from './events.ts';

export interface ChatMessage {
  /** One line of plain text: what happened. */
  headline: string;
  /** The item's title (or a label when the item has none). */
  title: string;
  /** Where the item is in the dashboard. */
  url: string;
  /** Longer text (a comment's body), if any. */
  detail?: string;
  facts: Array<{ name: string; value: string }>;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
}

const record = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/** The neutral message of a queued body. */
export function chatMessage(body: WebhookBody): ChatMessage {
  const data = body.data;
  const feature = record(data['feature']);
  const url = data.url;
  const env = (name: string, value: unknown) => (str(value) ? [{ name, value: str(value) }] : []);
  switch (body.type) {
    case 'feature.created':
      return {
        headline: feature['type'] === 'bug' ? 'New bug report' : 'New feature request',
        title: str(feature['title']),
        url,
        facts: [...env('Status', feature['status']), ...env('Environment', data['environment'])],
      };
    case 'feature.status_changed':
      return {
        headline: `Status changed from ${str(data['from'])} to ${str(data['to'])}`,
        title: str(feature['title']),
        url,
        facts: [...env('From', data['from']), ...env('To', data['to'])],
      };
    case 'feature.published':
    case 'feature.hidden':
      return {
        headline: body.type === 'feature.published' ? 'Now public' : 'Now internal',
        title: str(feature['title']),
        url,
        facts: env('Environment', data['environment']),
      };
    case 'comment.created': {
      const comment = record(data['comment']);
      return {
        headline: `${str(comment['authorName']) || 'Someone'} commented`,
        title: str(feature['title']),
        url,
        detail: str(comment['body']),
        facts: [],
      };
    }
    case 'changelog.published':
      return { headline: 'Changelog published', title: str(record(data['entry'])['summary']), url, facts: [] };
    case 'error.new_group':
    case 'error.regressed':
      return {
        headline: body.type === 'error.new_group' ? 'New error' : 'Error regressed',
        title: str(record(data['error'])['title']),
        url,
        facts: env('Environment', data['sdkEnvironment']),
      };
    case 'error.alert': {
      const rule = record(data['rule']);
      return {
        headline: `Alert: ${str(rule['name'])}`,
        title: str(record(data['error'])['title']),
        url,
        facts: [
          ...env('Environment', data['sdkEnvironment']),
          ...env('Level', record(data['error'])['level']),
          ...(data['events'] === undefined
            ? []
            : [{ name: 'Events', value: `${str(data['events'])} in ${str(data['minutes'])} min` }]),
        ],
      };
    }
    case 'release.health_dropped': {
      const rate = (value: unknown) => (typeof value === 'number' ? `${(value * 100).toFixed(2)} %` : '–');
      return {
        headline: 'Release health dropped',
        title: str(record(data['release'])['version']),
        url,
        facts: [
          { name: 'Crash-free sessions', value: rate(data['crashFreeSessions']) },
          ...(data['previous']
            ? [{ name: 'Previous release', value: rate(record(data['previous'])['crashFreeSessions']) }]
            : []),
        ],
      };
    }
    case 'translation.missing_key':
      return {
        headline: 'Missing translation',
        title: str(data['key']),
        url,
        facts: env('Locale', data['locale']),
      };
    default:
      return { headline: 'Signpost test message', title: 'Webhook settings', url, facts: [] };
  }
}

/** Cuts to `max` characters (UTF-16 units, as Discord counts), ending with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never leave half a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Discord's markdown characters, escaped so a title shows as typed. */
const discordEscape = (text: string) => text.replace(/[\\*_~`|>#[\]<@]/g, (c) => `\\${c}`);

export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fieldName: 256,
  fieldValue: 1024,
  fields: 25,
  footer: 2048,
  total: 6000,
} as const;

/** Signpost's brand blue, as Discord's decimal colour. */
const COLOUR = 0x2f6fed;

export function discordPayload(body: WebhookBody): Record<string, unknown> {
  const message = chatMessage(body);
  const title = clip(message.title || message.headline, DISCORD_LIMITS.title);
  const fields = message.facts.slice(0, DISCORD_LIMITS.fields).map((fact) => ({
    name: clip(fact.name, DISCORD_LIMITS.fieldName),
    value: clip(fact.value, DISCORD_LIMITS.fieldValue),
    inline: true,
  }));
  const footer = 'Signpost';
  // What the title, fields and footer leave of the 6000 characters all embeds may hold.
  const used = title.length + footer.length + fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
  const room = Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.total - used);
  const description = message.detail ? clip(message.detail, room) : undefined;
  return {
    content: clip(`${discordEscape(message.headline)}: ${discordEscape(title)}`, DISCORD_LIMITS.content),
    embeds: [
      {
        title,
        url: message.url,
        ...(description ? { description } : {}),
        color: COLOUR,
        ...(fields.length > 0 ? { fields } : {}),
        footer: { text: footer },
        timestamp: body.timestamp,
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

export function teamsPayload(body: WebhookBody): Record<string, unknown> {
  const message = chatMessage(body);
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      { type: 'TextBlock', text: message.headline, weight: 'Bolder', size: 'Medium', wrap: true },
      // Adaptive Cards render a subset of markdown in TextBlocks; the title is kept literal by
      // being the link's label only in the action, and shown here as plain text.
      { type: 'TextBlock', text: message.title || message.headline, wrap: true },
      ...(message.detail ? [{ type: 'TextBlock', text: clip(message.detail, 2000), wrap: true, isSubtle: true }] : []),
      ...(message.facts.length > 0
        ? [{ type: 'FactSet', facts: message.facts.map((fact) => ({ title: fact.name, value: fact.value })) }]
        : []),
    ],
    actions: [{ type: 'Action.OpenUrl', title: 'Open in Signpost', url: message.url }],
  };
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  };
}
