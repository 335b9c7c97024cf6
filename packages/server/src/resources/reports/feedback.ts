/**
 * Sentry user feedback (issue 31): a `feedback` envelope item (the feedback widget and
 * `captureFeedback`: an event whose `contexts.feedback` holds message, contact_email, name, url,
 * associated_event_id) or a legacy `user_report` item (event_id, name, email, comments) becomes a
 * bug report (channel sdk, type feedback) keeping the name, e-mail, message and URL in its
 * metadata, linked to the error group of the associated event when that event is kept.
 */
import type { Database } from '../../db/database.ts';
import type { Scope } from '../../kernel/scope.ts';
import { type Occurrence, recordBug } from './store.ts';
import { groupOfEvent, linkBugToErrorGroup } from './store-feedback.ts';

export interface SentryFeedback {
  message: string;
  name: string | null;
  email: string | null;
  url: string | null;
  /** The associated event's id (32 hex digits), if any. */
  eventId: string | null;
  source: string | null;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;
const hexId = (value: unknown): string | null =>
  typeof value === 'string' && /^[0-9a-fA-F-]{32,36}$/.test(value) ? value.replaceAll('-', '').toLowerCase() : null;

/** The feedback of a `feedback` item's event; undefined without a message. */
export function feedbackFromEvent(event: Record<string, unknown>): SentryFeedback | undefined {
  const contexts = event['contexts'] as Record<string, unknown> | undefined;
  const feedback = (contexts?.['feedback'] ?? undefined) as Record<string, unknown> | undefined;
  const message = text(feedback?.['message'], 5000);
  if (!feedback || !message) return undefined;
  return {
    message,
    name: text(feedback['name'], 200),
    email: text(feedback['contact_email'], 254),
    url: text(feedback['url'], 4000),
    eventId: hexId(feedback['associated_event_id']),
    source: text(feedback['source'], 100),
  };
}

/** The feedback of a legacy `user_report` item; undefined without comments. */
export function feedbackFromUserReport(report: Record<string, unknown>): SentryFeedback | undefined {
  const message = text(report['comments'], 5000);
  if (!message) return undefined;
  return {
    message,
    name: text(report['name'], 200),
    email: text(report['email'], 254),
    url: null,
    eventId: hexId(report['event_id']),
    source: 'user_report',
  };
}

/** Records the feedback as a bug report, linked to its event's error group when that is kept. */
export async function recordSentryFeedback(
  db: Database,
  scope: Scope,
  feedback: SentryFeedback,
  now: Date,
): Promise<Occurrence & { groupId: string | null }> {
  const groupId = feedback.eventId ? ((await groupOfEvent(db, scope.projectId, feedback.eventId)) ?? null) : null;
  const firstLine = feedback.message.split('\n')[0]!.slice(0, 80);
  const occurrence = await recordBug(
    db,
    scope,
    {
      title: `Feedback: ${firstLine}`.slice(0, 200),
      message: feedback.message,
      bugType: 'feedback',
      channel: 'sdk',
      metadata: {
        feedback: {
          name: feedback.name,
          email: feedback.email,
          url: feedback.url,
          eventId: feedback.eventId,
          source: feedback.source,
        },
      },
    },
    now,
    groupId ? (tx, id) => linkBugToErrorGroup(tx, id, groupId) : undefined,
  );
  return { ...occurrence, groupId };
}
