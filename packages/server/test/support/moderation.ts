/**
 * Held ideas and comments for moderation tests, until the board's pages make them: an idea or a
 * comment made through the public API is held through the features store, exactly as if the
 * board had stored it held (a held comment is not counted on its idea). Other packages' tests use
 * it through `@signpost/server/testing/moderation`.
 */
import assert from 'node:assert/strict';
import { holdComment, holdFeature } from '../../src/resources/features/index.ts';
import type { TestServer } from './server.ts';
import type { ManagedProject } from './manage-fixtures.ts';

/** A new idea (live key), held. */
export async function heldIdea(server: TestServer, p: ManagedProject, title: string): Promise<string> {
  const created = await p.live.post('/features', { title, description: `${title}, please.` });
  assert.equal(created.status, 201, created.text);
  assert.ok(await holdFeature(server.db, p.projectId, created.body.id));
  return created.body.id;
}

/** A new comment on a public idea (live key), held. */
export async function heldComment(
  server: TestServer,
  p: ManagedProject,
  featureId: string,
  body: string,
): Promise<string> {
  const created = await p.live.post(`/features/${featureId}/comments`, { body, authorName: 'Grace' });
  assert.equal(created.status, 201, created.text);
  assert.ok(await holdComment(server.db, p.projectId, created.body.id));
  return created.body.id;
}

/** Hold an existing idea or comment of a project (what `heldIdea` and `heldComment` do). */
export { holdComment, holdFeature };
