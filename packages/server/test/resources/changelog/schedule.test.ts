/**
 * Scheduled changelog entries: `publishAt` on create and PATCH (validated: future only, drafts
 * only), the `state` a client sees, and the schedule worker that publishes due entries as a manual
 * publish would (public changelog, board page, follower e-mail queued once). Two servers on one
 * database racing for the same due entries publish and notify each entry exactly once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createFollower } from '../../support/followers.ts';
import { updateBoard } from '../../../src/resources/board/index.ts';
import { ScheduleWorker } from '../../../src/resources/changelog/mount.ts';

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('changelog scheduling', () => {
  let server: TestServer;
  let p: ManagedProject;
  const path = (rest = '') => `/projects/${p.projectId}/changelog${rest}`;

  before(async () => {
    server = await startTestServer({ env: { CHANGELOG_SCHEDULE_INTERVAL_MS: '100', OUTBOX_POLL_MS: '0' } });
    p = await managedProject(server);
    await updateBoard(server.db, p.projectId, { enabled: true });
  });
  after(() => server.close());

  const outboxRows = async (featureId: string) =>
    Number(
      (await server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM notification_outbox WHERE feature_id = ?', [
        featureId,
      ]))!.n,
    );

  it('previews a description as it would be stored, storing nothing', async () => {
    const before = (await p.admin.get(path())).body.total;
    const preview = await p.admin.post(path('/preview'), {
      description: '<p><strong>Bold</strong> <a href="https://example.com">link</a><script>alert(1)</script></p>',
    });
    assert.equal(preview.status, 200);
    assert.doesNotMatch(preview.body.description, /script|alert/);
    assert.match(preview.body.description, /<strong>Bold<\/strong>/);
    assert.match(preview.body.description, /href="https:\/\/example.com"/);
    assert.equal((await p.member.post(path('/preview'), { description: '<p>x</p>' })).status, 403);
    assert.equal((await p.admin.get(path())).body.total, before);
  });

  it('refuses a past time, a bad time, scheduling a published entry and a member, changing nothing', async () => {
    const draft = (await p.admin.post(path(), { summary: 'Refusals' })).body;
    assert.equal(draft.state, 'draft');
    assert.equal(draft.publishAt, null);

    const past = await p.admin.patch(path(`/${draft.id}`), { publishAt: inSeconds(-60) });
    assert.equal(past.status, 400);
    assert.match(past.body.error, /publishAt/);
    assert.equal(past.body.details[0].field, 'publishAt');
    const bad = await p.admin.patch(path(`/${draft.id}`), { publishAt: 'tomorrow' });
    assert.equal(bad.status, 400);
    const pastCreate = await p.admin.post(path(), { summary: 'Too late', publishAt: inSeconds(-1) });
    assert.equal(pastCreate.status, 400);
    const both = await p.admin.post(path(), { summary: 'Both', published: true, publishAt: inSeconds(60) });
    assert.equal(both.status, 400);
    const asMember = await p.member.patch(path(`/${draft.id}`), { publishAt: inSeconds(60) });
    assert.equal(asMember.status, 403);
    assert.equal((await p.admin.get(path(`/${draft.id}`))).body.state, 'draft');

    await p.admin.post(path(`/${draft.id}/publish`));
    const published = await p.admin.patch(path(`/${draft.id}`), { publishAt: inSeconds(60), summary: 'Changed' });
    assert.equal(published.status, 409);
    const after = (await p.admin.get(path(`/${draft.id}`))).body;
    assert.equal(after.state, 'published');
    assert.equal(after.summary, 'Refusals');
    assert.equal(after.publishAt, null);
  });

  it('schedules, reschedules and clears; publish and unpublish clear the schedule; nothing public before', async () => {
    const when = inSeconds(3600);
    const created = await p.admin.post(path(), { summary: 'Later', publishAt: when });
    assert.equal(created.status, 201);
    assert.equal(created.body.state, 'scheduled');
    assert.equal(created.body.publishAt, when);
    assert.equal(created.body.published, false);
    const id = created.body.id;

    const scheduled = await p.admin.get(path(), { query: { state: 'scheduled' } });
    assert.ok(scheduled.body.entries.some((entry: any) => entry.id === id));
    const drafts = await p.admin.get(path(), { query: { state: 'draft' } });
    assert.ok(!drafts.body.entries.some((entry: any) => entry.id === id));
    assert.ok(!(await p.live.get('/changelog')).body.entries.some((entry: any) => entry.id === id));
    const board = await fetch(`${server.origin}/b/${p.projectId}/changelog`);
    assert.equal(board.status, 200);
    assert.ok(!(await board.text()).includes('Later'));

    // A time with an offset is stored in UTC.
    const offset = new Date(Date.now() + 7200_000);
    const local = `${offset.toISOString().slice(0, 19)}+00:00`;
    const moved = await p.admin.patch(path(`/${id}`), { publishAt: local });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.publishAt, `${offset.toISOString().slice(0, 19)}.000Z`);

    const cleared = await p.admin.patch(path(`/${id}`), { publishAt: null });
    assert.equal(cleared.body.state, 'draft');
    assert.equal(cleared.body.publishAt, null);

    await p.admin.patch(path(`/${id}`), { publishAt: when });
    const unpublished = await p.admin.post(path(`/${id}/unpublish`));
    assert.equal(unpublished.body.state, 'draft');
    assert.equal(unpublished.body.publishAt, null);

    await p.admin.patch(path(`/${id}`), { publishAt: when });
    const now = await p.admin.post(path(`/${id}/publish`));
    assert.equal(now.body.state, 'published');
    assert.equal(now.body.publishAt, null);
    assert.ok(Date.parse(now.body.publishedAt) <= Date.now());
  });

  it('publishes a due entry at its time like a manual publish: public API, board, one follower e-mail', async () => {
    const idea = (await p.live.post('/features', { title: 'Scheduled idea', description: 'Ships on a timer.' })).body;
    await createFollower(server.db, p.projectId, [idea.id]);
    const created = await p.admin.post(path(), {
      summary: 'Timer shipped',
      description: '<p>Now <strong>live</strong></p>',
      featureId: idea.id,
      publishAt: inSeconds(1.5),
    });
    assert.equal(created.body.state, 'scheduled');
    assert.ok(!(await p.live.get('/changelog')).body.entries.some((entry: any) => entry.id === created.body.id));
    // The board page is cached until a commit: read it before, so a stale cache would show.
    assert.ok(!(await (await fetch(`${server.origin}/b/${p.projectId}/changelog`)).text()).includes('Timer shipped'));

    const shown = await until('the public changelog to show the entry', async () => {
      const entries = (await p.live.get('/changelog')).body.entries;
      return entries.find((entry: any) => entry.id === created.body.id);
    });
    assert.ok(Date.parse(shown.publishedAt) >= Date.parse(created.body.publishAt));
    const managed = (await p.admin.get(path(`/${created.body.id}`))).body;
    assert.equal(managed.state, 'published');
    assert.equal(managed.publishAt, null);
    assert.ok((await (await fetch(`${server.origin}/b/${p.projectId}/changelog`)).text()).includes('Timer shipped'));
    await sleep(300);
    assert.equal(await outboxRows(idea.id), 1);
    // The worker's publish is in the audit log, by the system actor, as a manual publish is.
    const audit = await p.admin.get(`/projects/${p.projectId}/audit`, {
      query: { action: 'changelog_entry.published', targetId: created.body.id },
    });
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.entries.length, 1);
    const [entry] = audit.body.entries;
    assert.deepEqual(entry.actor, { type: 'system', id: null, label: 'system', via: 'system' });
    assert.deepEqual(entry.target, { type: 'changelog_entry', id: created.body.id });
    assert.equal(entry.before.state, 'scheduled');
    assert.equal(entry.after.state, 'published');
    assert.equal(entry.after.publishAt, null);
  });

  it('two servers racing for the same due entries publish and notify each exactly once', async () => {
    // Two servers on one database of their own, without running workers: their workers race by hand.
    const a = await startTestServer({ env: { CHANGELOG_SCHEDULE_INTERVAL_MS: '0', OUTBOX_POLL_MS: '0' } });
    const b = await startTestServer({
      database: a.database,
      env: { CHANGELOG_SCHEDULE_INTERVAL_MS: '0', OUTBOX_POLL_MS: '0' },
    });
    try {
      const q = await managedProject(a);
      const idea = (await q.live.post('/features', { title: 'Raced idea', description: 'Raced by two workers.' })).body;
      await createFollower(a.db, q.projectId, [idea.id]);
      const ids: string[] = [];
      // One time for all, far enough ahead that a loaded machine still creates them before it.
      const publishAt = inSeconds(5);
      for (let i = 0; i < 12; i++) {
        const created = await q.admin.post(`/projects/${q.projectId}/changelog`, {
          summary: `Raced ${i}`,
          featureId: idea.id,
          publishAt,
        });
        assert.equal(created.status, 201, created.text);
        ids.push(created.body.id);
      }
      await sleep(Math.max(0, Date.parse(publishAt) - Date.now()) + 100);
      const workerA = new ScheduleWorker({ db: a.db, intervalMs: 0, log: a.app.log });
      const workerB = new ScheduleWorker({ db: b.db, intervalMs: 0, log: b.app.log });
      const [first, second] = await Promise.all([workerA.runPass(), workerB.runPass()]);
      const mine = (list: string[]) => list.filter((id) => ids.includes(id));
      const both = [...mine(first), ...mine(second)];
      assert.equal(new Set(both).size, both.length, 'an entry was published twice');
      assert.deepEqual(both.sort(), [...ids].sort(), 'every due entry published');
      // Each publish is in the audit log once, by the system actor: the loser of a race records nothing.
      const audited = await a.db.all<{ target_id: string; actor_type: string }>(
        "SELECT target_id, actor_type FROM audit_entries WHERE project_id = ? AND action = 'changelog_entry.published'",
        [q.projectId],
      );
      assert.deepEqual(audited.map((row) => row.target_id).sort(), [...ids].sort());
      assert.ok(audited.every((row) => row.actor_type === 'system'));
      const rows = await a.db.all<{ n: number }>(
        'SELECT COUNT(*) AS n FROM changelog_entries WHERE project_id = ? AND published = 1',
        [q.projectId],
      );
      assert.equal(Number(rows[0]!.n), ids.length);
      const events = Number(
        (await a.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM notification_outbox WHERE feature_id = ?', [
          idea.id,
        ]))!.n,
      );
      assert.equal(events, ids.length, 'one follower e-mail per entry');
      // A second pass finds nothing left to do.
      assert.deepEqual(mine(await workerA.runPass()), []);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
