/**
 * Ideas' "value" (issue 30): the monthly revenue of their voters' companies (resources/people),
 * each company once however many of its people voted. What the features store needs to keep
 * `features.value` (store-value.ts): whether a voter counts, and the value of given ideas or of
 * every valued idea of a project.
 */
import type { Queryable } from '../../db/database.ts';
import { placeholders } from '../../db/database.ts';

/** Whether this voter id is a person of a company with a revenue: only their votes move a value. */
export async function voterIsValued(db: Queryable, projectId: string, voterId: string): Promise<boolean> {
  const row = await db.get(
    `SELECT 1 AS valued FROM person_aliases a JOIN people p ON p.id = a.person_id
     JOIN companies c ON c.id = p.company_id
     WHERE a.project_id = ? AND a.kind = 'voter_id' AND a.value = ? AND c.monthly_revenue IS NOT NULL`,
    [projectId, voterId],
  );
  return row !== undefined;
}

/** The value of each of these ideas of the project, by id (ideas without a valued voter: absent). */
export async function valuesOfFeatures(db: Queryable, projectId: string, ids: readonly string[]) {
  const values = new Map<string, number>();
  if (ids.length === 0) return values;
  const rows = await db.all<{ feature_id: string; value: number }>(
    `SELECT cv.feature_id, SUM(cv.monthly_revenue) AS value FROM (
       SELECT DISTINCT v.feature_id, c.id, c.monthly_revenue FROM votes v
       JOIN person_aliases a ON a.project_id = ? AND a.kind = 'voter_id' AND a.value = v.voter_id
       JOIN people p ON p.id = a.person_id
       JOIN companies c ON c.id = p.company_id
       WHERE v.feature_id IN (${placeholders(ids.length)}) AND c.monthly_revenue IS NOT NULL) cv
     GROUP BY cv.feature_id`,
    [projectId, ...ids],
  );
  for (const row of rows) values.set(row.feature_id, Number(row.value));
  return values;
}

/**
 * Every valued idea of the project with its value: one pass from the project's companies to their
 * people's votes (votes_by_voter). For the recompute after a company change.
 */
export async function allValuesOfProject(db: Queryable, projectId: string) {
  const rows = await db.all<{ feature_id: string; value: number }>(
    `SELECT cv.feature_id, SUM(cv.monthly_revenue) AS value FROM (
       SELECT DISTINCT v.feature_id, c.id, c.monthly_revenue FROM companies c
       JOIN people p ON p.company_id = c.id
       JOIN person_aliases a ON a.person_id = p.id AND a.kind = 'voter_id'
       JOIN votes v ON v.voter_id = a.value
       JOIN features f ON f.id = v.feature_id AND f.project_id = c.project_id
       WHERE c.project_id = ? AND c.monthly_revenue IS NOT NULL) cv GROUP BY cv.feature_id`,
    [projectId],
  );
  return new Map(rows.map((row) => [row.feature_id, Number(row.value)]));
}

/** The ideas these voter ids voted for in the project. */
export async function featuresVotedBy(db: Queryable, projectId: string, voterIds: readonly string[]) {
  if (voterIds.length === 0) return [];
  const rows = await db.all<{ feature_id: string }>(
    `SELECT DISTINCT v.feature_id FROM votes v JOIN features f ON f.id = v.feature_id
     WHERE f.project_id = ? AND v.voter_id IN (${placeholders(voterIds.length)})`,
    [projectId, ...voterIds],
  );
  return rows.map((row) => row.feature_id);
}

/** The company version the project's people are at, and the one its stored values reflect. */
export async function valueVersions(db: Queryable, projectId: string): Promise<{ wanted: number; have: number }> {
  const row = await db.get<{ wanted: number | null; have: number | null }>(
    `SELECT (SELECT version FROM company_value_versions WHERE project_id = ?) AS wanted,
            (SELECT version FROM feature_value_versions WHERE project_id = ?) AS have`,
    [projectId, projectId],
  );
  return { wanted: Number(row?.wanted ?? 0), have: Number(row?.have ?? 0) };
}
