/**
 * An update racing a delete of the same item answers 200, 404 (or 409), never 500, and leaves a
 * consistent state. Each race runs many pairs, several at once, so that the delete lands between
 * an update's write and its read back (or between a child's write and its parent's lock).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../support/server.ts';
import { callTool, connectMcp, startMcpTestServer, textOf, type Connected } from '../support/mcp.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';
import type { ApiResponse } from '../support/api.ts';
import { insertFeature } from '../../src/resources/features/store.ts';

const PAIRS = 100;
/** Pairs in flight at once: enough to keep the pool busy, few enough that each pair still races. */
const AT_ONCE = 10;
const ALLOWED = new Set([200, 201, 204, 404, 409]);

interface Outcome {
  update: ApiResponse;
  remove: ApiResponse;
}

/**
 * Creates an item, then sends the update and the delete at the same moment, PAIRS times;
 * returns every pair's answers after checking each is an allowed status.
 */
async function race<T>(
  setup: (index: number) => Promise<T>,
  update: (item: T) => Promise<ApiResponse>,
  remove: (item: T) => Promise<ApiResponse>,
  check: (item: T, outcome: Outcome) => Promise<void>,
  allowed: ReadonlySet<number> = ALLOWED,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const failures: string[] = [];
  for (let from = 0; from < PAIRS; from += AT_ONCE) {
    const round = await Promise.all(
      Array.from({ length: Math.min(AT_ONCE, PAIRS - from) }, async (_, offset) => {
        const item = await setup(from + offset);
        // Staggered by 0 to 3 ms, either way round, so the delete lands at every point of the update.
        const index = from + offset;
        const lag = (index >> 1) % 4;
        const [updated, removed] = await Promise.all([
          later(index % 2 === 0 ? lag : 0, () => update(item)),
          later(index % 2 === 1 ? lag : 0, () => remove(item)),
        ]);
        const outcome = { update: updated, remove: removed };
        for (const response of [updated, removed]) {
          if (!allowed.has(response.status)) failures.push(`${response.status} ${response.text}`);
        }
        await check(item, outcome);
        return outcome;
      }),
    );
    outcomes.push(...round);
  }
  assert.deepEqual(
    failures,
    [],
    `${failures.length} of ${PAIRS * 2} answers were not one of ${[...allowed].join(', ')}`,
  );
  return outcomes;
}

async function later<T>(ms: number, action: () => Promise<T>): Promise<T> {
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  return action();
}

const unchecked = { unchecked: true } as const;

describe('races: an update against a delete of the same item', () => {
  let server: TestServer;
  let p: ManagedProject;
  let mcp: Connected;

  before(async () => {
    server = await startMcpTestServer();
    p = await managedProject(server);
    mcp = await connectMcp(server.origin, { key: p.liveKey });
  });
  after(async () => {
    await mcp?.close();
    await server.close();
  });

  // Straight into the store: POST /features allows 50 a key per 5 minutes, and it is not what races here.
  const newFeature = (title: string) =>
    insertFeature(
      server.db,
      { projectId: p.projectId, environment: 'live' },
      { title, description: 'Race me, please', type: 'feature', status: 'open', internal: false },
    );
  const site = (rest: string) => `/projects/${p.projectId}/site-config${rest}`;

  it('PATCH environment vs DELETE environment', async () => {
    await race(
      async (index) => {
        const created = await p.admin.post(site('/environments'), { name: `Env ${index}`, slug: `env-${index}` });
        assert.equal(created.status, 201, created.text);
        return created.body.id as string;
      },
      (id) => p.admin.patch(site(`/environments/${id}`), { name: 'Renamed', color: '#112233' }, unchecked),
      (id) => p.admin.delete(site(`/environments/${id}`), unchecked),
      async (_id, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 200) assert.equal(update.body.name, 'Renamed');
      },
    );
    const list = await p.admin.get(site('/environments'));
    assert.deepEqual(list.body.environments, []);
  });

  it('PATCH message vs DELETE message', async () => {
    await race(
      async (index) => {
        const created = await p.admin.post(site('/messages'), { type: 'info', text: `Message ${index}` });
        assert.equal(created.status, 201, created.text);
        return created.body.id as string;
      },
      (id) => p.admin.patch(site(`/messages/${id}`), { text: 'Changed', priority: 5 }, unchecked),
      (id) => p.admin.delete(site(`/messages/${id}`), unchecked),
      async (_id, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 200) assert.equal(update.body.text, 'Changed');
      },
    );
    const list = await p.admin.get(site('/messages'));
    assert.deepEqual(list.body.messages, []);
  });

  it('PUT flag vs DELETE flag: the flag ends deleted, or set as the PUT said', async () => {
    await race(
      async (index) => {
        const key = `flag-${index}`;
        const created = await p.admin.put(site(`/flags/${key}`), { enabled: false });
        assert.equal(created.status, 201, created.text);
        return key;
      },
      (key) => p.admin.put(site(`/flags/${key}`), { enabled: true }, unchecked),
      (key) => p.admin.delete(site(`/flags/${key}`), unchecked),
      async (key, { update }) => {
        if (update.status === 200 || update.status === 201)
          assert.deepEqual([update.body.key, update.body.enabled], [key, true]);
      },
    );
    const list = await p.admin.get(site('/flags'));
    // A PUT that came second made the flag again; it then holds the PUT's value.
    for (const flag of list.body.featureFlags) assert.equal(flag.enabled, true);
  });

  it('PATCH /features (public key) vs management DELETE of the feature', async () => {
    await race(
      async (index) => {
        return (await newFeature(`Idea ${index}`)).id;
      },
      (id) => p.live.patch(`/features/${id}`, { status: 'planned', developerNotes: 'racing' }, unchecked),
      (id) => p.admin.delete(`/projects/${p.projectId}/features/${id}`, unchecked),
      async (id, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 200) assert.equal(update.body.status, 'planned');
        assert.equal((await p.live.get(`/features/${id}`, unchecked)).status, 404);
      },
    );
  });

  it('MCP update_feature_status vs management DELETE of the feature: done, or "not found", never an internal error', async () => {
    // A tool answer as an HTTP-like status: 200 done, 404 the tool's "not found", 500 anything else.
    const updateByTool = async (featureId: string) => {
      const result = await callTool(mcp.client, 'update_feature_status', { featureId, status: 'planned' });
      const text = textOf(result);
      const status = !result.isError ? 200 : /not found/.test(text) ? 404 : 500;
      return { status, text, body: result.structuredContent, headers: new Headers() } as ApiResponse;
    };
    await race(
      async (index) => (await newFeature(`Tool ${index}`)).id,
      updateByTool,
      (id) => p.admin.delete(`/projects/${p.projectId}/features/${id}`, unchecked),
      async (_id, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 200) assert.equal(update.body.status, 'planned');
      },
    );
  });

  it('management PATCH feature vs management DELETE of the feature', async () => {
    await race(
      async (index) => {
        return (await newFeature(`Managed ${index}`)).id;
      },
      (id) => p.admin.patch(`/projects/${p.projectId}/features/${id}`, { status: 'done', title: 'Renamed' }, unchecked),
      (id) => p.admin.delete(`/projects/${p.projectId}/features/${id}`, unchecked),
      async (id, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 200) assert.equal(update.body.title, 'Renamed');
        assert.equal((await p.admin.get(`/projects/${p.projectId}/features/${id}`, unchecked)).status, 404);
      },
    );
  });

  it('changelog entry linking a feature vs DELETE of that feature: 201, or 400 naming featureId', async () => {
    const created: string[] = [];
    await race(
      async (index) => (await newFeature(`Linked ${index}`)).id,
      (id) => p.admin.post(`/projects/${p.projectId}/changelog`, { summary: 'Shipped it', featureId: id }, unchecked),
      (id) => p.admin.delete(`/projects/${p.projectId}/features/${id}`, unchecked),
      async (_id, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 400) assert.equal(update.body.details[0].field, 'featureId');
        if (update.status === 201) created.push(update.body.id);
      },
      new Set([201, 204, 400]),
    );
    // An entry made first and then left by its feature's delete stands alone, as a delete leaves it.
    for (const id of created) {
      const entry = await p.admin.get(`/projects/${p.projectId}/changelog/${id}`);
      assert.equal(entry.body.featureId, null);
    }
  });

  it('PUT translation value vs DELETE of its key: the key and its texts are gone', async () => {
    const keys = `/projects/${p.projectId}/translations/keys`;
    await race(
      async (index) => {
        const key = `race.key${index}`;
        const created = await p.admin.post(keys, { key, defaultText: 'Hello', translations: { de: 'Hallo' } });
        assert.equal(created.status, 201, created.text);
        return key;
      },
      (key) => p.admin.put(`${keys}/${key}/values/de`, { text: 'Servus' }, unchecked),
      (key) => p.admin.delete(`${keys}/${key}`, unchecked),
      async (key, { update, remove }) => {
        assert.equal(remove.status, 204, remove.text);
        if (update.status === 200) assert.equal(update.body.translations.de, 'Servus');
        assert.equal((await p.admin.get(`${keys}/${key}`, unchecked)).status, 404);
      },
    );
    const orphans = await server.db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM translation_values v WHERE NOT EXISTS (SELECT 1 FROM translation_keys k WHERE k.id = v.key_id)',
    );
    assert.equal(Number(orphans!.n), 0);
  });
});
