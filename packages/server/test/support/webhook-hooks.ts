/**
 * Helpers of the webhook delivery tests: an endpoint made through the management API, an idea to
 * fire events, an endpoint's deliveries, and a wait for a condition.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from './api.ts';
import type { ManagedProject } from './manage-fixtures.ts';

export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export interface CreatedHook {
  id: string;
  secret: string;
  url: string;
}

export async function createHook(
  p: ManagedProject,
  url: string,
  events: readonly string[],
  extra: Record<string, unknown> = {},
): Promise<CreatedHook> {
  const response = await p.admin.post(`/projects/${p.projectId}/webhooks`, { url, events, ...extra });
  assert.equal(response.status, 201, response.text);
  assert.match(response.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  return { id: response.body.id, secret: response.body.secret, url };
}

export async function newFeature(api: Api, title = 'Dark mode for the app'): Promise<string> {
  const response = await api.post('/features', { title, description: 'Please add a dark mode to the app.' });
  assert.equal(response.status, 201, response.text);
  return response.body.id;
}

export async function deliveries(p: ManagedProject, hookId: string) {
  const response = await p.member.get(`/projects/${p.projectId}/webhooks/${hookId}/deliveries`);
  assert.equal(response.status, 200, response.text);
  return response.body.deliveries as Array<Record<string, any>>;
}
