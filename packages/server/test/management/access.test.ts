/**
 * A sweep over every project route of the management API, read from its own OpenAPI document:
 * an account of another team gets the same 404 as for a missing project on every one of them, a
 * member may read (all but the admin-only reads) but not write, and neither changes anything the owner sees. A route added
 * later without an access check fails here without anyone listing it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';

/** A valid body (and query) per operation, so that access, not validation, decides the answer. */
const REQUESTS: Record<string, { body?: unknown; query?: Record<string, string> }> = {
  manageUpdateFeature: { body: { status: 'planned' } },
  manageAddTeamComment: { body: { body: 'Sneaky reply' } },
  manageMarkTriaged: { body: { ids: ['TARGET'] } },
  manageSetNotificationSettings: { body: { undoWindowSeconds: 5 } },
  manageSetPeopleSettings: { body: { eraseContent: 'delete' } },
  manageExportPerson: { body: {} },
  manageErasePerson: { body: {} },
  manageMergePerson: { body: { into: 'OTHER_PERSON' } },
  manageExportProject: { body: {} },
  manageUploadSourceMaps: { body: { release: '1.0.0', files: [{ name: '~/app.js', content: 'x' }] } },
  manageDeleteReleaseSourceMaps: { query: { release: '1.0.0' } },
  manageImport: { body: 'Title\nSneaky imported idea\n', query: { source: 'csv' } },
  manageMergeFeature: { body: { targetId: 'TARGET' } },
  manageCreateFeatureOnBehalf: {
    body: { title: 'Sneaky idea', description: 'Filed by someone outside.', email: 'sneaky@example.com' },
  },
  manageCreateChangelogEntry: { body: { summary: 'Sneaky entry' } },
  manageUpdateChangelogEntry: { body: { summary: 'Changed' } },
  managePublishChangelogEntry: { body: {} },
  manageUnpublishChangelogEntry: { body: {} },
  manageUpdateSiteSettings: { body: { debugMode: true } },
  manageUpdateMaintenance: { body: { enabled: true } },
  manageSetFlag: { body: { enabled: false } },
  manageCreateMessage: { body: { type: 'error', text: 'Hacked' } },
  manageUpdateMessage: { body: { text: 'Hacked' } },
  manageCreateEnvironment: { body: { name: 'Evil', slug: 'evil' } },
  manageUpdateEnvironment: { body: { name: 'Evil' } },
  manageUpdateLocales: { body: { defaultLocale: 'fr' } },
  manageCreateTranslationKey: { body: { key: 'evil.key', defaultText: 'x' } },
  manageUpdateTranslationKey: { body: { defaultText: 'Hacked' } },
  manageSetTranslation: { body: { text: 'Hacked' } },
  manageImportTranslations: { body: { 'evil.key': 'x' }, query: { locale: 'de' } },
  manageExportTranslations: { query: { locale: 'de' } },
  manageAddMissingTranslationKeys: { body: {} },
  manageCreateTag: { body: { name: 'Sneaky' } },
  manageUpdateTag: { body: { name: 'Hacked' } },
  manageSetFeatureTags: { body: { tagIds: [] } },
  manageCreateRelease: { body: { version: '9.9.9' } },
  manageUpdateRelease: { body: { title: 'Hacked' } },
  manageUpdateReleaseHealthSettings: { body: { crashFreeThreshold: 50 } },
  manageSetBugStatus: { body: { status: 'ignored' } },
  manageSetErrorStatus: { body: { status: 'ignored' } },
  manageSetErrorGroupStatus: { body: { status: 'ignored' } },
  manageMergeErrorGroups: { body: { groupIds: ['OTHER_GROUP'] } },
  manageLinkErrorGroup: { body: { featureId: 'TARGET' } },
  manageResolveErrorGroupInRelease: { body: {} },
  manageResolveFeatureInRelease: { body: { release: '2.0.0' } },
  manageCreateErrorAlertRule: { body: { name: 'Sneaky', kind: 'new_group', recipients: [] } },
  manageReplaceErrorAlertRule: { body: { name: 'Hacked', kind: 'new_group', recipients: [] } },
  manageSetLogGroupStatus: { body: { status: 'ignored' } },
  updateProject: { body: { name: 'Hacked' } },
  createApiKey: { body: { environment: 'live', scopes: ['public:read'] } },
  putAuditSettings: { body: { retentionDays: 30 } },
};

/** Reads only admins may make (the audit log names colleagues, keys and settings): a member gets 403. */
const ADMIN_READS = new Set(['listAuditEntries', 'exportAuditEntries', 'getAuditSettings']);

/** Server-sent event streams: they answer 200 and stay open (tested in their own files), so no read of them ends. */
const STREAMS = new Set(['manageTailLogLines']);

interface Route {
  method: string;
  template: string;
  operationId: string;
}

describe('management: every project route is scoped to the team and the role', () => {
  let server: TestServer;
  let p: ManagedProject;
  let routes: Route[];
  const ids: Record<string, string> = {};

  before(async () => {
    // No webhook worker: its delivery of the test message queued below would change the
    // snapshots these tests compare, at whatever moment its poll comes.
    server = await startTestServer({ env: { WEBHOOKS_POLL_MS: '0', ERROR_ALERT_POLL_MS: '0' } });
    p = await managedProject(server);
    const base = `/projects/${p.projectId}`;
    ids['projectId'] = p.projectId;
    const feature = (
      await p.live.post('/features', { title: 'Dark mode', description: 'A dark theme for everything.' })
    ).body;
    const target = (
      await p.live.post('/features', { title: 'Night mode', description: 'The same idea, another name.' })
    ).body;
    ids['featureId'] = feature.id;
    ids['TARGET'] = target.id;
    // The widget's screenshot (issue 35): a 1x1 PNG on the feature.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    ids['attachmentId'] = (
      (await (
        await fetch(`${server.baseUrl}/features/${feature.id}/attachments`, {
          method: 'POST',
          headers: { 'x-api-key': p.liveKey, 'content-type': 'image/png' },
          body: png,
        })
      ).json()) as { id: string }
    ).id;
    await p.live.put(`/features/${feature.id}/votes/voter-1`);
    ids['voterId'] = 'voter-1';
    ids['commentId'] = (await p.live.post(`/features/${feature.id}/comments`, { body: 'Yes please' })).body.id;
    ids['entryId'] = (await p.admin.post(`${base}/changelog`, { summary: 'Entry', published: true })).body.id;
    ids['tagId'] = (await p.admin.post(`${base}/tags`, { name: 'Mobile' })).body.id;
    await p.admin.put(`${base}/features/${feature.id}/tags`, { tagIds: [ids['tagId']] });
    ids['messageId'] = (await p.admin.post(`${base}/site-config/messages`, { type: 'info', text: 'Hello' })).body.id;
    await p.admin.put(`${base}/site-config/flags/flag-a`, { enabled: true });
    ids['flagKey'] = 'flag-a';
    ids['environmentId'] = (
      await p.admin.post(`${base}/site-config/environments`, { name: 'Staging', slug: 'staging' })
    ).body.id;
    await p.admin.post(`${base}/translations/keys`, { key: 'a.b', defaultText: 'A', translations: { de: 'Ä' } });
    ids['key'] = 'a.b';
    ids['locale'] = 'de';
    await p.admin.post(`${base}/releases`, { version: '1.0.0' });
    ids['version'] = '1.0.0';
    ids['bugs'] = (await p.live.post('/bugs', { title: 'Broken button', message: 'The button does nothing.' })).body.id;
    ids['errors'] = (
      await p.live.post('/errors', { title: 'TypeError', message: 'x is undefined in checkout' })
    ).body.id;
    ids['groupId'] = (await p.owner.get(`${base}/errors/${ids['errors']}`)).body.groupId;
    ids['eventId'] = 'latest';
    const other = (await p.live.post('/errors', { title: 'RangeError', message: 'index out of range' })).body.id;
    ids['OTHER_GROUP'] = (await p.owner.get(`${base}/errors/${other}`)).body.groupId;
    ids['ruleId'] = (
      await p.admin.post(`${base}/error-alerts`, { name: 'New errors', kind: 'new_group', recipients: [] })
    ).body.id;
    // Two people: a person is merged into another (manageMergePerson).
    await p.live.put(`/features/${target.id}/votes/access-voter-1`);
    await p.live.put(`/features/${target.id}/votes/access-voter-2`);
    const people = (await p.owner.get(`${base}/people`)).body.people;
    ids['personId'] = people[0].id;
    ids['OTHER_PERSON'] = people[1].id;
    const sourceMap = JSON.stringify({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA' });
    ids['artifactId'] = (
      await p.admin.post(`${base}/source-maps`, {
        release: '1.0.0',
        files: [{ name: '~/app.js.map', content: sourceMap }],
      })
    ).body.artifacts[0].id;
    await p.live.post('/logs', { logs: [{ level: 'error', message: 'Timeout' }] });
    ids['logs'] = (await p.owner.get(`${base}/logs`)).body.logs[0].id;
    ids['lineId'] = (await p.owner.get(`${base}/logs/lines`)).body.lines[0].id;
    await p.live.post('/i18n-telemetry', { locale: 'de', missingKeys: ['missing.key'] });
    ids['keyId'] = (await p.owner.get(`${base}/keys`)).body.keys[0].id;
    // A public name: the endpoint is never reached (the test message fails to resolve, and is retried later).
    ids['webhookId'] = (
      await p.admin.post(`${base}/webhooks`, {
        url: 'https://hooks.example.invalid/signpost',
        events: ['feature.created'],
      })
    ).body.id;
    ids['deliveryId'] = (await p.admin.post(`${base}/webhooks/${ids['webhookId']}/test`)).body.id;

    const doc = (await p.owner.get('/openapi.json', { unchecked: true })).body;
    routes = [];
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      if (!template.startsWith('/projects/{projectId}')) continue;
      for (const [method, operation] of Object.entries<any>(item))
        routes.push({ method: method.toUpperCase(), template, operationId: operation.operationId });
    }
  });
  after(() => server.close());

  const pathOf = (template: string) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'reportId') return ids[template.split('/')[3]!]!;
      const value = ids[name];
      assert.ok(value, `no test value for {${name}} in ${template}`);
      return encodeURIComponent(value);
    });

  const call = (who: 'outsider' | 'member' | 'owner', route: Route) => {
    const request = REQUESTS[route.operationId] ?? {};
    const body =
      request.body === undefined ? (['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined) : request.body;
    const resolved = JSON.parse(
      JSON.stringify(body ?? null)
        .replace(/"TARGET"/g, JSON.stringify(ids['TARGET']))
        .replace(/"OTHER_GROUP"/g, JSON.stringify(ids['OTHER_GROUP']))
        .replace(/"OTHER_PERSON"/g, JSON.stringify(ids['OTHER_PERSON'])),
    );
    return p[who].request<any>(route.method, pathOf(route.template), body === undefined ? undefined : resolved, {
      query: request.query ?? {},
    });
  };

  /** Everything the owner can read, to prove nothing changed. */
  async function snapshot(): Promise<Record<string, unknown>> {
    const reads: Record<string, unknown> = {};
    for (const route of routes.filter((r) => r.method === 'GET' && !STREAMS.has(r.operationId))) {
      const res = await call('owner', route);
      assert.equal(res.status, 200, `${route.operationId} as owner`);
      reads[route.operationId] = res.body;
    }
    return reads;
  }

  it('finds the project routes in the OpenAPI document', () => {
    const names = routes.map((r) => r.operationId);
    for (const expected of [
      'manageListFeatures',
      'manageMergeFeature',
      'manageCreateChangelogEntry',
      'manageUpdateMaintenance',
      'manageImportTranslations',
      'manageCreateRelease',
      'manageSetLogGroupStatus',
    ]) {
      assert.ok(names.includes(expected), expected);
    }
    assert.ok(routes.length >= 50, `${routes.length} routes`);
  });

  it("answers another team's account with 404 everywhere, and changes nothing", async () => {
    const before = await snapshot();
    for (const route of routes) {
      const res = await call('outsider', route);
      const known = REQUESTS[route.operationId] !== undefined || !['POST', 'PUT', 'PATCH'].includes(route.method);
      if (known) {
        assert.equal(res.status, 404, `${route.method} ${route.template} as outsider: ${res.status} ${res.text}`);
        assert.deepEqual(res.body, { error: 'Not found', code: 'NotFound' });
      } else {
        assert.ok([400, 404].includes(res.status), `${route.method} ${route.template} as outsider: ${res.status}`);
      }
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('lets a member read everything and write nothing', async () => {
    const before = await snapshot();
    for (const route of routes.filter((r) => !STREAMS.has(r.operationId))) {
      const res = await call('member', route);
      if (route.method === 'GET' && ADMIN_READS.has(route.operationId)) {
        assert.equal(res.status, 403, `${route.template} as member`);
      } else if (route.method === 'GET') {
        assert.equal(res.status, 200, `${route.template} as member`);
      } else if (REQUESTS[route.operationId] !== undefined || route.method === 'DELETE') {
        assert.equal(res.status, 403, `${route.method} ${route.template} as member: ${res.status} ${res.text}`);
      }
    }
    assert.deepEqual(await snapshot(), before);
  });
});
