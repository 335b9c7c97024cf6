/**
 * The body an endpoint gets: the Standard Webhooks JSON as queued (`standard`), a Slack
 * incoming-webhook payload (`slack`: `text` with a link to the item, and one section block), or a
 * Discord or Microsoft Teams message (`discord`, `teams`: chat-formats.ts).
 */
import { discordPayload, teamsPayload } from './chat-formats.ts';
import type { WebhookBody } from './events.ts';

import type { WebhookFormat } from './format-names.ts';

/** Slack's mrkdwn escapes (&, <, >). */
const mrkdwn = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value);
}

/** One line saying what happened, with a link to the item. */
export function slackText(body: WebhookBody): string {
  const data = body.data as Record<string, Record<string, unknown> | string | undefined> & { url: string };
  const feature = (data['feature'] ?? {}) as Record<string, unknown>;
  const link = (label: string) => `<${data.url}|${mrkdwn(label || 'open')}>`;
  const title = str(feature['title']);
  switch (body.type) {
    case 'feature.created':
      return `New ${feature['type'] === 'bug' ? 'bug report' : 'feature request'}: ${link(title)}`;
    case 'feature.status_changed':
      return `${link(title)} moved from ${mrkdwn(str(data['from']))} to ${mrkdwn(str(data['to']))}`;
    case 'feature.published':
      return `${link(title)} is now public`;
    case 'feature.hidden':
      return `${link(title)} is now internal`;
    case 'comment.created': {
      const comment = (data['comment'] ?? {}) as Record<string, unknown>;
      const author = str(comment['authorName']) || 'Someone';
      return `${mrkdwn(author)} commented on ${link(title)}: ${mrkdwn(str(comment['body']).slice(0, 500))}`;
    }
    case 'changelog.published': {
      const entry = (data['entry'] ?? {}) as Record<string, unknown>;
      return `Changelog published: ${link(str(entry['summary']))}`;
    }
    case 'error.new_group':
    case 'error.regressed': {
      const error = (data['error'] ?? {}) as Record<string, unknown>;
      const what = body.type === 'error.new_group' ? 'New error' : 'Error regressed';
      return `${what} (${mrkdwn(str(data['environment']))}): ${link(str(error['title']))}`;
    }
    case 'error.alert': {
      const error = (data['error'] ?? {}) as Record<string, unknown>;
      const rule = (data['rule'] ?? {}) as Record<string, unknown>;
      return `Alert ${mrkdwn(str(rule['name']))} (${mrkdwn(str(data['sdkEnvironment']))}): ${link(str(error['title']))}`;
    }
    case 'release.created': {
      const release = (data['release'] ?? {}) as Record<string, unknown>;
      return `Release ${link(str(release['version']))} is live`;
    }
    case 'release.health_dropped': {
      const release = (data['release'] ?? {}) as Record<string, unknown>;
      const rate = typeof data['crashFreeSessions'] === 'number' ? (data['crashFreeSessions'] * 100).toFixed(2) : '?';
      return `Release ${link(str(release['version']))} health dropped: ${rate} % crash-free sessions`;
    }
    case 'feature.shipped': {
      const release = (data['release'] ?? {}) as Record<string, unknown>;
      return `${link(title)} shipped in ${mrkdwn(str(release['version']))}`;
    }
    case 'translation.missing_key':
      return `Missing translation: \`${mrkdwn(str(data['key']))}\` in ${mrkdwn(str(data['locale']))} (${link('translations')})`;
    default:
      return `Signpost test message for this webhook (${link('webhook settings')})`;
  }
}

export function renderBody(format: WebhookFormat, payload: string): string {
  if (format === 'standard') return payload;
  const body = JSON.parse(payload) as WebhookBody;
  if (format === 'discord') return JSON.stringify(discordPayload(body));
  if (format === 'teams') return JSON.stringify(teamsPayload(body));
  const text = slackText(body);
  return JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
}
