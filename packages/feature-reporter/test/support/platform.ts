import type { TestServer } from '@signpost/server/testing';
// The server exports only its app and its test harness; the key helper comes from its source.
import { ALL_PUBLIC_SCOPES, createApiKey } from '../../../server/src/resources/projects/index.ts';

/** A live key for the platform's own project, whose submissions default to internal. */
export async function platformKey(server: TestServer): Promise<string> {
  return (await createApiKey(server.db, server.platformProjectId, 'live', ALL_PUBLIC_SCOPES)).key;
}
