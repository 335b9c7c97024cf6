import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_PUBLIC_SCOPES, createApiKey } from '../../../src/resources/projects/index.ts';
import type { TestProject, TestServer } from '../../support/server.ts';
import type { Api } from '../../support/api.ts';
import { startPublicProject } from '../../support/public-project.ts';

const bug = (extra: Record<string, unknown> = {}) => ({
  title: 'Save fails',
  message: 'Clicking save shows an error.',
  ...extra,
});
const error = (extra: Record<string, unknown> = {}) => ({
  title: 'TypeError in checkout',
  message: "Cannot read properties of undefined (reading 'price')",
  errorType: 'TypeError',
  ...extra,
});

describe('bugs, errors and logs', () => {
  let server: TestServer;
  let project: TestProject;
  let api: Api;

  before(async () => {
    ({ server, project, api } = await startPublicProject());
  });
  after(() => server.close());

  describe('POST /bugs', () => {
    it('creates a record (201), then counts repeats of title + message within the hour (200, same id)', async () => {
      const first = await api.post(
        '/bugs',
        bug({ severity: 'high', stackTrace: 'at save()', bugType: 'ui', metadata: { page: '/x' } }),
      );
      assert.equal(first.status, 201);
      assert.deepEqual(Object.keys(first.body).sort(), ['id', 'message']);
      const again = await api.post('/bugs', bug());
      assert.equal(again.status, 200);
      assert.equal(again.body.id, first.body.id);
      const other = await api.post('/bugs', bug({ message: 'Another message entirely.' }));
      assert.equal(other.status, 201);
      assert.notEqual(other.body.id, first.body.id);
      const row = await server.db.get<any>('SELECT * FROM bug_reports WHERE id = ?', [first.body.id]);
      assert.equal(Number(row.occurrences), 2);
      assert.equal(row.severity, 'high');
      assert.equal(row.environment, 'live');
    });

    it('starts a new record once the first one is over an hour old', async () => {
      const first = await api.post('/bugs', bug({ title: 'Old bug here' }));
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000 - 1000).toISOString();
      await server.db.run('UPDATE bug_reports SET first_seen_at = ? WHERE id = ?', [hourAgo, first.body.id]);
      const later = await api.post('/bugs', bug({ title: 'Old bug here' }));
      assert.equal(later.status, 201);
      assert.notEqual(later.body.id, first.body.id);
      assert.equal((await api.post('/bugs', bug({ title: 'Old bug here' }))).body.id, later.body.id);
    });

    it('defaults severity to medium and validates bounds and enums', async () => {
      const res = await api.post('/bugs', bug({ title: 'Default severity' }));
      const row = await server.db.get<any>('SELECT severity FROM bug_reports WHERE id = ?', [res.body.id]);
      assert.equal(row.severity, 'medium');
      for (const body of [
        bug({ title: 'abcd' }),
        bug({ message: 'too short' }),
        bug({ severity: 'urgent' }),
        bug({ title: 'x'.repeat(201) }),
        bug({ message: 'x'.repeat(5001) }),
        bug({ createFeature: 'yes' }),
        { title: 'Only a title' },
      ]) {
        assert.equal((await api.post('/bugs', body)).status, 400, JSON.stringify(body).slice(0, 60));
      }
    });

    it('creates a linked bug feature with createFeature, with the internal rules', async () => {
      const res = await api.post(
        '/bugs',
        bug({ title: 'Linked bug report', message: 'm'.repeat(1200), createFeature: true }),
      );
      assert.equal(res.status, 201);
      const row = await server.db.get<any>('SELECT feature_id FROM bug_reports WHERE id = ?', [res.body.id]);
      const feature = await api.get(`/features/${row.feature_id}`);
      assert.equal(feature.status, 200);
      assert.equal(feature.body.type, 'bug');
      assert.equal(feature.body.status, 'new');
      assert.equal(feature.body.title, 'Linked bug report');
      assert.equal(feature.body.description.length, 1000);
      assert.equal(feature.body.internal, false);
      // A duplicate does not create a second feature.
      await api.post('/bugs', bug({ title: 'Linked bug report', message: 'm'.repeat(1200), createFeature: true }));
      const count = await server.db.get<any>("SELECT COUNT(*) AS n FROM features WHERE title = 'Linked bug report'");
      assert.equal(Number(count.n), 1);

      const platformKey = await createApiKey(server.db, server.platformProjectId, 'live', ALL_PUBLIC_SCOPES);
      const platform = api.withKey(platformKey.key);
      const cases: Array<[Record<string, unknown>, boolean]> = [
        [{}, true],
        [{ channel: 'widget' }, false],
        [{ channel: 'sdk' }, false],
        [{ internal: false }, false],
        [{ internal: true, channel: 'sdk' }, true],
      ];
      for (const [index, [extra, internal]] of cases.entries()) {
        const created = await platform.post(
          '/bugs',
          bug({ title: `Platform bug ${index}`, createFeature: true, ...extra }),
        );
        const link = await server.db.get<any>(
          'SELECT f.internal FROM bug_reports b JOIN features f ON f.id = b.feature_id WHERE b.id = ?',
          [created.body.id],
        );
        assert.equal(Number(link.internal), internal ? 1 : 0, JSON.stringify(extra));
      }
      const customerInternal = await api.post(
        '/bugs',
        bug({ title: 'Customer internal', createFeature: true, internal: true }),
      );
      const link = await server.db.get<any>(
        'SELECT f.internal FROM bug_reports b JOIN features f ON f.id = b.feature_id WHERE b.id = ?',
        [customerInternal.body.id],
      );
      assert.equal(Number(link.internal), 1);
    });
  });

  describe('POST /errors', () => {
    it('dedups on title + errorType within the hour, with duplicate flag and 201/200', async () => {
      const first = await api.post(
        '/errors',
        error({
          severity: 'critical',
          url: 'https://app/x',
          breadcrumbs: [{ timestamp: new Date().toISOString(), type: 'click', message: 'button#pay' }],
          device: { browser: 'Chrome', os: 'Linux' },
          network: { online: true, rtt: 50, downlink: 10 },
          app: { version: '1.2.3', environment: 'production' },
        }),
      );
      assert.equal(first.status, 201);
      assert.equal(first.body.duplicate, false);
      assert.deepEqual(Object.keys(first.body).sort(), ['duplicate', 'id', 'message']);
      const again = await api.post('/errors', error({ message: 'A different message, same title and type' }));
      assert.equal(again.status, 200);
      assert.equal(again.body.duplicate, true);
      assert.equal(again.body.id, first.body.id);
      const otherType = await api.post('/errors', error({ errorType: 'RangeError' }));
      assert.equal(otherType.status, 201);
      const row = await server.db.get<any>('SELECT * FROM error_reports WHERE id = ?', [first.body.id]);
      assert.equal(Number(row.occurrences), 2);
      assert.equal(JSON.parse(row.breadcrumbs).length, 1);
      assert.equal(JSON.parse(row.device).browser, 'Chrome');
    });

    it('matches an absent errorType only with an absent one', async () => {
      const none = await api.post('/errors', error({ title: 'Untyped failure', errorType: undefined }));
      assert.equal(none.status, 201);
      assert.equal(
        (await api.post('/errors', error({ title: 'Untyped failure', errorType: undefined }))).body.id,
        none.body.id,
      );
      const empty = await api.post('/errors', error({ title: 'Untyped failure', errorType: '' }));
      assert.equal(empty.status, 201);
      assert.notEqual(empty.body.id, none.body.id);
    });

    it('validates breadcrumbs (max 50), their types, context objects and timestamps', async () => {
      const crumb = { timestamp: new Date().toISOString(), type: 'console', message: 'log' };
      assert.equal(
        (await api.post('/errors', error({ title: 'Fifty crumbs', breadcrumbs: Array(50).fill(crumb) }))).status,
        201,
      );
      const bad = [
        error({ breadcrumbs: Array(51).fill(crumb) }),
        error({ breadcrumbs: [{ ...crumb, type: 'scroll' }] }),
        error({ breadcrumbs: [{ type: 'click', message: 'no time' }] }),
        error({ breadcrumbs: [{ ...crumb, timestamp: 'yesterday' }] }),
        error({ app: { environment: 'qa' } }),
        error({ network: { downlink: 'fast' } }),
        error({ timestamp: 'not-a-time' }),
        error({ severity: 'fatal' }),
        error({ title: 'four' }),
      ];
      for (const body of bad) {
        const res = await api.post('/errors', body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 120));
        assert.ok(res.body.details.length >= 1);
      }
      const res = await api.post('/errors', error({ breadcrumbs: [{ ...crumb, type: 'scroll' }] }));
      assert.equal(res.body.details[0].field, 'breadcrumbs.0.type');
    });

    it('keeps test-key reports apart from live ones', async () => {
      const live = await api.post('/errors', error({ title: 'Env split error' }));
      const test = await api.withKey(project.testKey).post('/errors', error({ title: 'Env split error' }));
      assert.equal(live.status, 201);
      assert.equal(test.status, 201);
      assert.notEqual(live.body.id, test.body.id);
      const rows = await server.db.all<any>(
        "SELECT environment FROM error_reports WHERE title = 'Env split error' ORDER BY environment",
      );
      assert.deepEqual(
        rows.map((r) => r.environment),
        ['live', 'test'],
      );
    });
  });

  describe('POST /logs', () => {
    it('stores entries, folding repeats of level + category + message into one counted row', async () => {
      const entry = {
        level: 'warn',
        message: 'Slow query',
        category: 'db',
        data: { ms: 1200 },
        userId: 'u1',
        appVersion: '1.0.0',
      };
      const res = await api.post('/logs', {
        logs: [entry, entry, { ...entry, data: { ms: 900 } }, { ...entry, level: 'error' }],
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { accepted: 4 });
      const rows = await server.db.all<any>(
        "SELECT * FROM log_groups WHERE message = 'Slow query' AND project_id = ? ORDER BY level",
        [project.projectId],
      );
      assert.deepEqual(
        rows.map((r) => [r.level, Number(r.occurrences)]),
        [
          ['error', 1],
          ['warn', 3],
        ],
      );
      assert.deepEqual(JSON.parse(rows[1].data), { ms: 900 });
      await api.post('/logs', { logs: [entry] });
      const after = await server.db.get<any>(
        "SELECT occurrences FROM log_groups WHERE message = 'Slow query' AND level = 'warn' AND project_id = ?",
        [project.projectId],
      );
      assert.equal(Number(after.occurrences), 4);
    });

    it('batches sent at once are folded per project, environment and fingerprint: counts exact, nothing crosses', async () => {
      const other = await server.createProject();
      const keys = [project.liveKey, project.testKey, other.liveKey];
      const logs = [
        { level: 'info', message: 'Concurrent A', fingerprint: 'concurrent-a' },
        { level: 'info', message: 'Concurrent B', fingerprint: 'concurrent-b' },
        { level: 'info', message: 'Concurrent A', fingerprint: 'concurrent-a' },
      ];
      // 25 batches per key, all in flight together; folded with a 100-line batch, a write spans two statements.
      const wide = Array.from({ length: 100 }, (_, i) => ({
        level: 'debug',
        message: `Wide ${i}`,
        fingerprint: `wide-${i}`,
      }));
      const sends = keys.flatMap((key) =>
        Array.from({ length: 25 }, (_, i) => api.withKey(key).post('/logs', { logs: i % 5 === 0 ? wide : logs })),
      );
      for (const res of await Promise.all(sends)) assert.equal(res.status, 200);
      const counts = async (projectId: string, environment: string) =>
        Object.fromEntries(
          (
            await server.db.all<any>(
              "SELECT fingerprint, occurrences FROM log_groups WHERE project_id = ? AND environment = ? AND fingerprint IN ('concurrent-a', 'concurrent-b', 'wide-0', 'wide-99')",
              [projectId, environment],
            )
          ).map((r) => [r.fingerprint, Number(r.occurrences)]),
        );
      const expected = { 'concurrent-a': 40, 'concurrent-b': 20, 'wide-0': 5, 'wide-99': 5 };
      assert.deepEqual(await counts(project.projectId, 'live'), expected);
      assert.deepEqual(await counts(project.projectId, 'test'), expected);
      assert.deepEqual(await counts(other.projectId, 'live'), expected);
      const wideRows = await server.db.get<any>(
        "SELECT COUNT(*) AS n FROM log_groups WHERE project_id = ? AND environment = 'live' AND fingerprint LIKE 'wide-%'",
        [other.projectId],
      );
      assert.equal(Number(wideRows.n), 100);
    });

    it('uses a custom fingerprint instead of the computed one', async () => {
      await api.post('/logs', {
        logs: [
          { level: 'info', message: 'User 1 signed in', fingerprint: 'signin' },
          { level: 'info', message: 'User 2 signed in', fingerprint: 'signin' },
        ],
      });
      const row = await server.db.get<any>("SELECT * FROM log_groups WHERE fingerprint = 'signin' AND project_id = ?", [
        project.projectId,
      ]);
      assert.equal(Number(row.occurrences), 2);
      assert.equal(row.message, 'User 2 signed in');
    });

    it('records first and last seen from entry timestamps, defaulting to receive time', async () => {
      await api.post('/logs', {
        logs: [
          { level: 'debug', message: 'tick', timestamp: '2026-01-01T00:00:05.000Z' },
          { level: 'debug', message: 'tick', timestamp: '2026-01-01T00:00:01.000Z' },
        ],
      });
      const row = await server.db.get<any>("SELECT * FROM log_groups WHERE message = 'tick' AND project_id = ?", [
        project.projectId,
      ]);
      assert.equal(row.first_seen_at, '2026-01-01T00:00:01.000Z');
      assert.equal(row.last_seen_at, '2026-01-01T00:00:05.000Z');
    });

    it('rejects the whole batch when one entry is bad, naming its index, and stores nothing', async () => {
      const before = await server.db.get<any>('SELECT COUNT(*) AS n FROM log_groups');
      const logs = [
        { level: 'info', message: 'fine one' },
        { level: 'info', message: 'fine two' },
        { level: 'info', message: 'fine three' },
        { level: 'fatal', message: 'bad' },
      ];
      const res = await api.post('/logs', { logs });
      assert.equal(res.status, 400);
      assert.equal(res.body.details[0].field, 'logs.3.level');
      const after = await server.db.get<any>('SELECT COUNT(*) AS n FROM log_groups');
      assert.equal(Number(after.n), Number(before.n));
    });

    it('takes at most 100 entries and 5000-character messages', async () => {
      const entry = { level: 'trace', message: 'm' };
      assert.deepEqual((await api.post('/logs', { logs: Array(100).fill(entry) })).body, { accepted: 100 });
      assert.equal((await api.post('/logs', { logs: Array(101).fill(entry) })).status, 400);
      assert.equal((await api.post('/logs', { logs: [{ level: 'info', message: 'x'.repeat(5000) }] })).status, 200);
      assert.equal((await api.post('/logs', { logs: [{ level: 'info', message: 'x'.repeat(5001) }] })).status, 400);
      assert.equal((await api.post('/logs', {})).status, 400);
      assert.equal((await api.post('/logs', { logs: 'none' })).status, 400);
    });
  });

  describe('POST /i18n-telemetry', () => {
    it('counts missing keys per locale, normalising the locale', async () => {
      const res = await api.post('/i18n-telemetry', { locale: 'de-at', missingKeys: ['a.b', 'c', 'a.b'] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ok: true });
      await api.post('/i18n-telemetry', { locale: 'de-AT', missingKeys: ['a.b'] });
      const rows = await server.db.all<any>(
        'SELECT key, locale, occurrences FROM missing_translations WHERE project_id = ? ORDER BY key',
        [project.projectId],
      );
      assert.deepEqual(
        rows.map((r) => [r.key, r.locale, Number(r.occurrences)]),
        [
          ['a.b', 'de-AT', 2],
          ['c', 'de-AT', 1],
        ],
      );
    });

    it('rejects more than 100 keys, a bad locale and missing fields', async () => {
      assert.equal(
        (
          await api.post('/i18n-telemetry', {
            locale: 'en',
            missingKeys: Array.from({ length: 101 }, (_, i) => `k${i}`),
          })
        ).status,
        400,
      );
      assert.equal(
        (
          await api.post('/i18n-telemetry', {
            locale: 'en',
            missingKeys: Array.from({ length: 100 }, (_, i) => `k${i}`),
          })
        ).status,
        200,
      );
      assert.equal((await api.post('/i18n-telemetry', { locale: 'not a locale!', missingKeys: ['x'] })).status, 400);
      assert.equal((await api.post('/i18n-telemetry', { missingKeys: ['x'] })).status, 400);
      assert.equal((await api.post('/i18n-telemetry', { locale: 'en' })).status, 400);
    });
  });
});

describe('resolved and ignored report groups', () => {
  let server: TestServer;
  let api: Api;
  let projectId: string;

  before(async () => {
    let project: TestProject;
    ({ server, project, api } = await startPublicProject());
    projectId = project.projectId;
  });
  after(() => server.close());

  it('reopens a resolved group when it recurs (errors: regressed); an ignored one stays ignored', async () => {
    const err = await api.post('/errors', error({ title: 'Regression here' }));
    const ignoredErr = await api.post('/errors', error({ title: 'Ignored noise' }));
    const bugReport = await api.post('/bugs', bug({ title: 'Regressed bug' }));
    await api.post('/logs', { logs: [{ level: 'error', message: 'Regressed log', fingerprint: 'regressed' }] });
    await server.db.run("UPDATE error_reports SET status = 'resolved' WHERE id = ?", [err.body.id]);
    await server.db.run("UPDATE error_reports SET status = 'ignored' WHERE id = ?", [ignoredErr.body.id]);
    await server.db.run("UPDATE bug_reports SET status = 'resolved' WHERE id = ?", [bugReport.body.id]);
    await server.db.run(
      "UPDATE log_groups SET status = 'resolved' WHERE fingerprint = 'regressed' AND project_id = ?",
      [projectId],
    );

    await api.post('/errors', error({ title: 'Regression here' }));
    await api.post('/errors', error({ title: 'Ignored noise' }));
    await api.post('/bugs', bug({ title: 'Regressed bug' }));
    await api.post('/logs', { logs: [{ level: 'error', message: 'Regressed log', fingerprint: 'regressed' }] });

    const status = async (sql: string, id: string) => (await server.db.get<any>(sql, [id])).status;
    assert.equal(await status('SELECT status FROM error_reports WHERE id = ?', err.body.id), 'regressed');
    assert.equal(await status('SELECT status FROM error_reports WHERE id = ?', ignoredErr.body.id), 'ignored');
    assert.equal(await status('SELECT status FROM bug_reports WHERE id = ?', bugReport.body.id), 'open');
    assert.equal(
      (
        await server.db.get<any>("SELECT status FROM log_groups WHERE fingerprint = 'regressed' AND project_id = ?", [
          projectId,
        ])
      ).status,
      'open',
    );
  });
});
