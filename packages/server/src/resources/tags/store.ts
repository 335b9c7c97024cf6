/**
 * The one store of tags and feature_tags: a project's team-defined tags and which ideas carry
 * them. Names are unique per project (the table's UNIQUE constraint decides, so two concurrent
 * creates of one name give one tag and one conflict).
 */
import { placeholders, type Database, type Queryable } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/failures.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { recordAudit } from '../audit/index.ts';

export interface TagRow {
  id: string;
  project_id: string;
  name: string;
  color: string | null;
  created_at: string;
}

/** A tag as an idea shows it. */
export interface IdeaTag {
  id: string;
  name: string;
  color: string | null;
}

const duplicate = (name: string) => new ConflictError(`A tag named "${name}" already exists in this project`);

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(name);
    throw error;
  }
}

/** A project's tags, by name. */
export async function listTags(db: Queryable, projectId: string): Promise<TagRow[]> {
  return db.all<TagRow>('SELECT * FROM tags WHERE project_id = ? ORDER BY name, id', [projectId]);
}

export async function getTag(db: Queryable, projectId: string, id: string): Promise<TagRow | undefined> {
  return db.get<TagRow>('SELECT * FROM tags WHERE id = ? AND project_id = ?', [id, projectId]);
}

/** Creates a tag; a name the project already has is a 409. */
export async function createTag(
  db: Queryable,
  projectId: string,
  input: { name: string; color?: string | null | undefined },
): Promise<TagRow> {
  const row: TagRow = {
    id: newId('tag'),
    project_id: projectId,
    name: input.name,
    color: input.color ?? null,
    created_at: nowIso(),
  };
  await uniqueName(input.name, () =>
    db.run('INSERT INTO tags (id, project_id, name, color, created_at) VALUES (?, ?, ?, ?, ?)', [
      row.id,
      row.project_id,
      row.name,
      row.color,
      row.created_at,
    ]),
  );
  return row;
}

/** Renames and/or recolours a tag (color null removes it); the row as written, or undefined if none. */
export async function updateTag(
  db: Queryable,
  projectId: string,
  id: string,
  changes: { name?: string | undefined; color?: string | null | undefined },
): Promise<TagRow | undefined> {
  const rows = await uniqueName(changes.name ?? '', () =>
    db.all<TagRow>(
      `UPDATE tags SET name = COALESCE(?, name), color = CASE WHEN ? = 1 THEN ? ELSE color END
        WHERE id = ? AND project_id = ? RETURNING *`,
      [changes.name ?? null, changes.color === undefined ? 0 : 1, changes.color ?? null, id, projectId],
    ),
  );
  return rows[0];
}

/** Deletes a tag; the ideas that carried it lose it (ON DELETE CASCADE). */
export async function deleteTag(db: Queryable, projectId: string, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM tags WHERE id = ? AND project_id = ?', [id, projectId]);
  return changes === 1;
}

/**
 * Replaces an idea's tags with `tagIds` (the caller has checked the idea belongs to the project).
 * Returns the ids that are not tags of the project (nothing is written then), else [].
 */
export async function setFeatureTags(
  db: Database,
  projectId: string,
  featureId: string,
  tagIds: readonly string[],
): Promise<string[]> {
  const wanted = [...new Set(tagIds)];
  return db.transaction(async (tx) => {
    const known =
      wanted.length === 0
        ? []
        : await tx.all<{ id: string }>(
            `SELECT id FROM tags WHERE project_id = ? AND id IN (${placeholders(wanted.length)})`,
            [projectId, ...wanted],
          );
    const knownIds = new Set(known.map((row) => row.id));
    const unknown = wanted.filter((id) => !knownIds.has(id));
    if (unknown.length > 0) return unknown;
    const was = await tx.all<{ tag_id: string }>(
      'SELECT tag_id FROM feature_tags WHERE feature_id = ? ORDER BY tag_id',
      [featureId],
    );
    await tx.run('DELETE FROM feature_tags WHERE feature_id = ?', [featureId]);
    for (const tagId of wanted) {
      await tx.run('INSERT INTO feature_tags (feature_id, tag_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [
        featureId,
        tagId,
      ]);
    }
    await recordAudit(tx, {
      projectId,
      action: 'feature.tags_set',
      target: { type: 'feature', id: featureId },
      before: { tagIds: was.map((row) => row.tag_id) },
      after: { tagIds: [...wanted].sort() },
    });
    return [];
  });
}

/** The tags of each of the given ideas (ideas without tags map to []), each list by name. */
export async function tagsOfFeatures(db: Queryable, featureIds: readonly string[]): Promise<Map<string, IdeaTag[]>> {
  const result = new Map<string, IdeaTag[]>(featureIds.map((id) => [id, []]));
  const ids = [...new Set(featureIds)];
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const rows = await db.all<{ feature_id: string; id: string; name: string; color: string | null }>(
      `SELECT ft.feature_id, t.id, t.name, t.color FROM feature_tags ft JOIN tags t ON t.id = ft.tag_id
        WHERE ft.feature_id IN (${placeholders(chunk.length)}) ORDER BY t.name, t.id`,
      chunk,
    );
    for (const row of rows) result.get(row.feature_id)?.push({ id: row.id, name: row.name, color: row.color });
  }
  return result;
}

/** The ids among `tagIds` that are not tags of the project (for a change that must refuse them). */
export async function unknownTagIds(tx: Queryable, projectId: string, tagIds: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(tagIds)];
  if (wanted.length === 0) return [];
  const known = await tx.all<{ id: string }>(
    `SELECT id FROM tags WHERE project_id = ? AND id IN (${placeholders(wanted.length)})`,
    [projectId, ...wanted],
  );
  const knownIds = new Set(known.map((row) => row.id));
  return wanted.filter((id) => !knownIds.has(id));
}

/**
 * Adds and removes tags on several ideas, in the caller's transaction (the caller has checked that
 * the ideas and tags belong to the project). Returns the ideas that now carry more than `max` tags.
 */
export async function changeFeaturesTags(
  tx: Queryable,
  featureIds: readonly string[],
  change: { add: readonly string[]; remove: readonly string[] },
  max: number,
): Promise<string[]> {
  const ids = [...new Set(featureIds)];
  if (ids.length === 0) return [];
  for (const featureId of ids) {
    for (const tagId of new Set(change.add)) {
      await tx.run('INSERT INTO feature_tags (feature_id, tag_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [
        featureId,
        tagId,
      ]);
    }
  }
  const remove = [...new Set(change.remove)];
  if (remove.length > 0) {
    await tx.run(
      `DELETE FROM feature_tags WHERE feature_id IN (${placeholders(ids.length)}) AND tag_id IN (${placeholders(remove.length)})`,
      [...ids, ...remove],
    );
  }
  if (change.add.length === 0) return [];
  const over = await tx.all<{ feature_id: string }>(
    `SELECT feature_id FROM feature_tags WHERE feature_id IN (${placeholders(ids.length)})
      GROUP BY feature_id HAVING COUNT(*) > ?`,
    [...ids, max],
  );
  return over.map((row) => row.feature_id);
}

/**
 * The tag an import gives a board of another tool: the project's tag of that name, else a new
 * one, with the source's colour when it has one (resources/imports; in the import's transaction,
 * no audit entry of its own: the import's entry counts it). `created` says which.
 */
export async function importTag(
  tx: Queryable,
  projectId: string,
  name: string,
  color?: string | undefined,
): Promise<{ id: string; created: boolean }> {
  const found = await tx.get<{ id: string }>('SELECT id FROM tags WHERE project_id = ? AND name = ?', [
    projectId,
    name,
  ]);
  // A tag the team already has keeps its own colour; only a new one takes the source's.
  if (found) return { id: found.id, created: false };
  const row = await createTag(tx, projectId, { name, color });
  return { id: row.id, created: true };
}

/** Gives imported ideas their board's tag, many per statement; one already carried stays. */
export async function addImportedFeatureTags(
  tx: Queryable,
  pairs: readonly { featureId: string; tagId: string }[],
): Promise<void> {
  for (let start = 0; start < pairs.length; start += 300) {
    const chunk = pairs.slice(start, start + 300);
    await tx.run(
      `INSERT INTO feature_tags (feature_id, tag_id) VALUES ${chunk.map(() => '(?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
      chunk.flatMap((pair) => [pair.featureId, pair.tagId]),
    );
  }
}
