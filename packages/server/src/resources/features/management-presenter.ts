import { isTrue } from '../../db/database.ts';
import type { CommentRow } from './store-comments.ts';
import type { FeatureRow } from './store.ts';
import type { IdeaTag } from '../tags/index.ts';
import { presentPersonSummary, type PersonWithCompany } from '../people/index.ts';

export function presentManagedFeature(row: FeatureRow, tags: IdeaTag[], value?: number) {
  return {
    id: row.id,
    projectId: row.project_id,
    environment: row.environment,
    title: row.title,
    description: row.description,
    type: row.type,
    status: row.status,
    internal: isTrue(row.internal),
    developerNotes: row.developer_notes,
    voteCount: Number(row.vote_count),
    commentCount: Number(row.comment_count),
    channel: row.channel,
    contactEmail: row.contact_email,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    triagedAt: row.triaged_at ?? null,
    tags,
    statusResponse: row.status_response ?? null,
    ...(value !== undefined && { value }),
  };
}

export function presentComment(row: CommentRow, people: Map<string, PersonWithCompany> = new Map()) {
  const person = row.board_user_id ? people.get(row.board_user_id) : undefined;
  return {
    id: row.id,
    featureId: row.feature_id,
    body: row.body,
    authorName: row.author_name,
    person: person ? presentPersonSummary(person) : null,
    team: Number(row.team ?? 0) === 1,
    internal: Number(row.internal ?? 0) === 1,
    accountId: row.account_id ?? null,
    editedAt: row.edited_at ?? null,
    hidden: Number(row.held ?? 0) === 1,
    createdAt: row.created_at,
  };
}
