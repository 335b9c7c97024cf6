import { isTrue } from '../../db/database.ts';
import type { FeatureRow } from './store.ts';

export const FEATURE_CREATED_MESSAGE = 'Thank you! Your submission has been received.';

export function presentListItem(
  row: Pick<
    FeatureRow,
    'id' | 'project_id' | 'title' | 'status' | 'type' | 'vote_count' | 'comment_count' | 'created_at'
  >,
) {
  return {
    id: row.id,
    projectId: row.project_id,
    title: row.title,
    status: row.status,
    type: row.type,
    voteCount: Number(row.vote_count),
    commentCount: Number(row.comment_count),
    createdAt: row.created_at,
  };
}

export function presentPublicFeature(row: FeatureRow) {
  return { ...presentListItem(row), description: row.description, internal: isTrue(row.internal) };
}

export function presentFullFeature(row: FeatureRow) {
  return { ...presentPublicFeature(row), developerNotes: row.developer_notes };
}
