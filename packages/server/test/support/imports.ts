/**
 * What the importers' tests share: the vendors' export fixtures (test/fixtures/imports), a
 * fixture directory zipped as a user uploads it, an upload through the management API as the raw
 * body (the CLI's way) or as a multipart/form-data form (the dashboard's way, encoded by Fetch's
 * own FormData), and the counts of what a project holds, to prove that a dry run or a refused
 * file stored nothing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { ManagedProject } from './manage-fixtures.ts';
import type { TestServer } from './server.ts';

export const IMPORT_FIXTURES = join(import.meta.dirname, '../fixtures/imports');

export const importFixture = (path: string): Buffer => readFileSync(join(IMPORT_FIXTURES, path));

/** A fixture directory zipped under `backup/`, as the vendor hands it out (Fider) or a user uploads it. */
export function zipFixtures(dir: string, only?: string[]): Uint8Array {
  return zipSync(
    Object.fromEntries(
      readdirSync(join(IMPORT_FIXTURES, dir))
        .filter((name) => !only || only.includes(name))
        .map((name) => [`backup/${name}`, new Uint8Array(importFixture(join(dir, name)))]),
    ),
  );
}

type Query = Record<string, string | boolean>;

/** The export as the raw request body. */
export function uploadRaw(project: ManagedProject, body: Uint8Array, query: Query, as: 'admin' | 'member' = 'admin') {
  return project[as].post(`/projects/${project.projectId}/imports`, undefined, {
    rawBody: body,
    headers: { 'content-type': 'application/octet-stream' },
    query,
  });
}

/** A form's bytes and content type as Fetch encodes them (the browser's encoder, boundary and all). */
export async function encodeForm(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/** The export as the one file of a multipart/form-data form, named `filename`. */
export async function uploadForm(project: ManagedProject, body: Uint8Array, filename: string, query: Query) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(body)]), filename);
  return postForm(project, form, query);
}

export async function postForm(project: ManagedProject, form: FormData, query: Query) {
  const { body, contentType } = await encodeForm(form);
  return project.admin.post(`/projects/${project.projectId}/imports`, undefined, {
    rawBody: body,
    headers: { 'content-type': contentType },
    query,
  });
}

/** What a project holds, by table. */
export async function importHoldings(server: TestServer, projectId: string) {
  const count = async (sql: string) => Number((await server.db.get<{ n: number }>(sql, [projectId]))!.n);
  const ofFeatures = (table: string, alias: string) =>
    `SELECT COUNT(*) AS n FROM ${table} ${alias} JOIN features f ON f.id = ${alias}.feature_id WHERE f.project_id = ?`;
  return {
    features: await count('SELECT COUNT(*) AS n FROM features WHERE project_id = ?'),
    votes: await count(ofFeatures('votes', 'v')),
    comments: await count(ofFeatures('comments', 'c')),
    people: await count('SELECT COUNT(*) AS n FROM people WHERE project_id = ?'),
    outbox: await count('SELECT COUNT(*) AS n FROM notification_outbox WHERE project_id = ?'),
    mappings: await count('SELECT COUNT(*) AS n FROM import_sources WHERE project_id = ?'),
    tags: await count('SELECT COUNT(*) AS n FROM tags WHERE project_id = ?'),
    featureTags: await count(ofFeatures('feature_tags', 'ft')),
    changelog: await count('SELECT COUNT(*) AS n FROM changelog_entries WHERE project_id = ?'),
    changelogLinks: await count(
      'SELECT COUNT(*) AS n FROM changelog_entry_features l JOIN changelog_entries e ON e.id = l.entry_id WHERE e.project_id = ?',
    ),
  };
}
