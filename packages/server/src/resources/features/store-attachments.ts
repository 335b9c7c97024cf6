/**
 * The feature_attachments table (issue 35): a bug report's screenshot, stored in the database.
 * Written through the public API by the widget right after it files the report, read only by the
 * team through the management API.
 */
import type { Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';

export interface AttachmentRow {
  id: string;
  feature_id: string;
  project_id: string;
  content_type: string;
  size: number;
  created_at: string;
}

const COLUMNS = 'id, feature_id, project_id, content_type, size, created_at';

export async function insertAttachment(
  tx: Queryable,
  projectId: string,
  featureId: string,
  contentType: string,
  content: Uint8Array,
): Promise<AttachmentRow> {
  const row: AttachmentRow = {
    id: newId('att'),
    feature_id: featureId,
    project_id: projectId,
    content_type: contentType,
    size: content.byteLength,
    created_at: nowIso(),
  };
  await tx.run(
    `INSERT INTO feature_attachments (id, feature_id, project_id, content_type, size, content, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [row.id, row.feature_id, row.project_id, row.content_type, row.size, content, row.created_at],
  );
  return row;
}

export async function countAttachments(db: Queryable, featureId: string): Promise<number> {
  const row = await db.get<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM feature_attachments WHERE feature_id = ?',
    [featureId],
  );
  return Number(row?.n ?? 0);
}

export async function listAttachments(db: Queryable, projectId: string, featureId: string): Promise<AttachmentRow[]> {
  return db.all<AttachmentRow>(
    `SELECT ${COLUMNS} FROM feature_attachments WHERE project_id = ? AND feature_id = ? ORDER BY created_at, id`,
    [projectId, featureId],
  );
}

export async function attachmentContent(
  db: Queryable,
  projectId: string,
  featureId: string,
  id: string,
): Promise<(AttachmentRow & { content: Uint8Array }) | undefined> {
  return db.get<AttachmentRow & { content: Uint8Array }>(
    `SELECT ${COLUMNS}, content FROM feature_attachments WHERE project_id = ? AND feature_id = ? AND id = ?`,
    [projectId, featureId, id],
  );
}
