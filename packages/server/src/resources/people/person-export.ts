/**
 * Everything held about one person (GDPR article 15), presented: what the management API's export
 * and the MCP feedback tool's export_person answer. Not on index.ts: the export reads every
 * resource's data (service.ts), so importing it from another resource would make a cycle.
 */
import type { Database } from '../../db/database.ts';
import { presentPerson } from './presenter.ts';
import { exportPersonData } from './service.ts';

const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** Everything held about one person, presented; undefined for no such person of the project. */
export async function personExport(db: Database, projectId: string, personId: string) {
  const data = await exportPersonData(db, projectId, personId);
  if (!data) return undefined;
  const { keys, activity, notifications, errors, sessions } = data;
  return {
    exportedAt: data.exportedAt,
    person: presentPerson(keys.person),
    aliases: keys.aliases,
    boardUsers: activity.boardUsers.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      locale: u.locale,
      createdAt: u.created_at,
    })),
    ideas: activity.ideas.map((row) => ({
      id: row.id,
      title: row.title,
      description: row.description,
      type: row.type,
      status: row.status,
      contactEmail: row.contact_email,
      voteCount: Number(row.vote_count),
      commentCount: Number(row.comment_count),
      createdAt: row.created_at,
    })),
    votes: activity.votes.map((row) => ({
      featureId: row.feature_id,
      featureTitle: row.title,
      voterId: row.voter_id,
      createdAt: row.created_at,
    })),
    comments: activity.comments.map((row) => ({
      id: row.id,
      featureId: row.feature_id,
      body: row.body,
      authorName: row.author_name,
      createdAt: row.created_at,
    })),
    follows: notifications.follows.map((row) => ({ featureId: row.feature_id, createdAt: row.created_at })),
    emails: notifications.emails.map((row) => ({
      id: row.id,
      featureId: row.feature_id,
      kind: row.kind,
      content: parsed(row.payload),
      state: row.state,
      createdAt: row.created_at,
      sentAt: row.sent_at,
    })),
    reports: errors.reports.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      message: row.message,
      metadata: parsed(row.metadata),
      firstSeenAt: row.first_seen_at,
    })),
    errorEvents: errors.events.map((row) => ({
      groupId: row.group_id,
      eventId: row.event_id,
      receivedAt: row.received_at,
      release: row.release,
      event: row.payload,
    })),
    sessions: sessions.map((row) => ({
      sid: row.sid,
      environment: row.environment,
      release: row.release,
      sdkEnvironment: row.sdk_environment,
      started: row.started,
      status: row.status,
    })),
  };
}
