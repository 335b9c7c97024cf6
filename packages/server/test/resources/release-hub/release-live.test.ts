/**
 * Releases as the hub (issue 33), what happens by itself, through HTTP against a running server:
 * an idea or bug filed with the error its user just hit (the widget's `metadata.errorEventId`, an
 * error report's id or a Sentry event id) is linked to that error's group, shown from both sides,
 * and POST /bugs links its report to the group as Sentry feedback does; an unknown id links
 * nothing. A version first seen in live events goes live by itself: the release list shows it as
 * "seen, not created", what was resolved in it ships, and creating it later ships nothing twice;
 * the board shows "Shipped in 5.1.0" on the idea and "Fixed in 5.1.0" on the bug (page, list,
 * roadmap).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('releases as the hub, by themselves', () => {
  let server: TestServer;
  let p: ManagedProject;
  let errorId: string;
  let groupId: string;
  let bugId: string;

  before(async () => {
    server = await startTestServer({ env: { RELEASE_SIGHTING_INTERVAL_MS: '100' } });
    p = await managedProject(server);
    assert.equal((await p.admin.patch(`/projects/${p.projectId}/board`, { enabled: true })).status, 200);
    const sent = await p.live.post('/errors', {
      title: 'Cart total is NaN',
      message: 'The total could not be computed.',
      errorType: 'TypeError',
      app: { version: 'shop@5.0.0' },
    });
    assert.equal(sent.status, 201, sent.text);
    errorId = sent.body.id;
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: 'Cart total' } });
    assert.equal(groups.status, 200, groups.text);
    groupId = groups.body.groups[0].id;
  });
  after(async () => {
    await server.close();
  });

  const path = (rest: string) => `/projects/${p.projectId}${rest}`;
  const statusOf = async (id: string) => (await p.member.get(path(`/features/${id}`))).body.status as string;

  it('links a bug filed with the error its user just hit to that error group, both ways', async () => {
    const bug = await p.live.post('/features', {
      title: 'Checkout shows NaN',
      description: 'The total says NaN after I add a coupon.',
      type: 'bug',
      metadata: { url: 'https://shop.example/cart', errorEventId: errorId },
    });
    assert.equal(bug.status, 201, bug.text);
    bugId = bug.body.id;
    const fromBug = await p.member.get(path(`/features/${bug.body.id}/error-links`));
    assert.equal(fromBug.status, 200, fromBug.text);
    assert.deepEqual(
      fromBug.body.groups.map((g: { id: string; source: string }) => [g.id, g.source]),
      [[groupId, 'event']],
    );
    assert.equal(fromBug.body.events, 1);
    const fromGroup = await p.member.get(path(`/error-groups/${groupId}/links`));
    assert.deepEqual(
      fromGroup.body.items.map((i: { id: string; source: string }) => [i.id, i.source]),
      [[bug.body.id, 'event']],
    );

    // An id that names no error of this project links nothing and still files the bug.
    const other = await p.live.post('/features', {
      title: 'Another odd total',
      description: 'Something else went wrong with the total.',
      type: 'bug',
      metadata: { errorEventId: 'err_not_one_of_ours' },
    });
    assert.equal(other.status, 201, other.text);
    assert.deepEqual((await p.member.get(path(`/features/${other.body.id}/error-links`))).body.groups, []);
  });

  it('links a POST /bugs report naming the error to its group, with its idea', async () => {
    const report = await p.live.post('/bugs', {
      title: 'Coupon breaks the total',
      message: 'After the coupon the total is NaN.',
      createFeature: true,
      metadata: { errorEventId: errorId },
    });
    assert.equal(report.status, 201, report.text);
    const links = await p.member.get(path(`/error-groups/${groupId}/links`));
    assert.ok(
      links.body.reporters.some((r: { bugReportId: string }) => r.bugReportId === report.body.id),
      links.text,
    );
    // The idea made for it is linked through the report (a derived link).
    const titles = links.body.items.map((i: { title: string; source: string }) => [i.title, i.source]);
    assert.ok(
      titles.some(([title, source]: [string, string]) => title === 'Coupon breaks the total' && source === 'feedback'),
      links.text,
    );
  });

  it('a version first seen in live events goes live: listed as seen, what was resolved in it ships once', async () => {
    const idea = await p.live.post('/features', { title: 'Totals in cents', description: 'Show the total in cents.' });
    assert.equal(idea.status, 201, idea.text);
    const resolved = await p.admin.put(path(`/features/${idea.body.id}/resolution`), { release: '5.1.0' });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal((await p.admin.put(path(`/features/${bugId}/resolution`), { release: '5.1.0' })).status, 200);
    assert.equal(await statusOf(idea.body.id), 'open');

    // Test-key events do not make a release live.
    await p.test.post('/errors', { title: 'Staging only', message: 'x', errorType: 'E', app: { version: '5.1.0' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await statusOf(idea.body.id), 'open');

    const sent = await p.live.post('/errors', {
      title: 'Rounding is off by one cent',
      message: 'A cent is lost.',
      errorType: 'RangeError',
      app: { version: 'shop@5.1.0' },
    });
    assert.equal(sent.status, 201, sent.text);
    const list = await eventually(
      () => p.member.get(path('/releases')),
      (res) => res.body.seen.some((s: { version: string }) => s.version === '5.1.0'),
      'the release list',
    );
    assert.equal(list.status, 200, list.text);
    const seen = list.body.seen.find((s: { version: string }) => s.version === '5.1.0');
    assert.equal(seen.source, 'events');
    assert.ok(
      list.body.seen.some((s: { version: string }) => s.version === '5.0.0'),
      'the first error made 5.0.0 seen too',
    );
    assert.deepEqual(list.body.releases, []);
    await eventually(
      () => statusOf(idea.body.id),
      (s) => s === 'done',
      'the idea',
    );
    const page = await p.member.get(path('/releases/5.1.0/overview'));
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body.shipped.items.map((i: { id: string }) => i.id).sort(), [idea.body.id, bugId].sort());

    // The board says which release: "Shipped in" an idea, "Fixed in" a bug, on its page, in the
    // list and on the roadmap.
    const board = async (rest: string) => {
      const res = await fetch(`${server.origin}/b/${p.projectId}${rest}`);
      assert.equal(res.status, 200, rest);
      return res.text();
    };
    assert.match(await board(`/ideas/${idea.body.id}`), /data-released-in="5\.1\.0">Shipped in 5\.1\.0</);
    assert.match(await board(`/ideas/${bugId}`), /data-released-in="5\.1\.0">Fixed in 5\.1\.0</);
    const listed = await board('/?status=done');
    assert.match(listed, /Shipped in 5\.1\.0/);
    assert.match(listed, /Fixed in 5\.1\.0/);
    assert.match(await board('/roadmap'), /Shipped in 5\.1\.0/);
    assert.match(await board(`/ideas/${idea.body.id}?lang=de`), /Ausgeliefert in 5\.1\.0|Shipped in 5\.1\.0/);

    // Created later: it leaves the seen list; nothing ships twice (one draft, the idea stays done).
    const created = await p.admin.post(path('/releases'), { version: '5.1.0', title: 'Cents' });
    assert.equal(created.status, 201, created.text);
    const after = await p.member.get(path('/releases'));
    assert.deepEqual(
      after.body.releases.map((r: { version: string }) => r.version),
      ['5.1.0'],
    );
    assert.ok(!after.body.seen.some((s: { version: string }) => s.version === '5.1.0'));
    const again = await p.member.get(path('/releases/5.1.0/overview'));
    assert.deepEqual(again.body.shipped, page.body.shipped);
    assert.equal((await p.outsider.get(path('/releases'))).status, 404);
  });
});
