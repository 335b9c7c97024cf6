import { isTrue } from '../../db/database.ts';
import type { CommentRow } from './store-comments.ts';
import type { FeatureRow } from './store.ts';
import type { IdeaTag } from '../tags/index.ts';

export function presentManagedFeature(row: FeatureRow, tags: IdeaTag[]) {
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
  };
}

export function presentComment(row: CommentRow) {
  return {
    id: row.id,
    featureId: row.feature_id,
    body: row.body,
    authorName: row.author_name,
    hidden: Number(row.held ?? 0) === 1,
    createdAt: row.created_at,
  };
}
