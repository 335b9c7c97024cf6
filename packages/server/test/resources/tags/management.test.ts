/**
 * Tags through the management API: create, list, rename, recolour, delete, and set an idea's tags;
 * names unique per project, clear 400s, roles, and another project's tag or idea a 404.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { managementApi } from '../../support/management.ts';
import { listBoardIdeas } from '../../../src/resources/features/index.ts';

describe('management: tags', () => {
  let server: TestServer;
  let p: ManagedProject;
  let q: ManagedProject;

  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    q = await managedProject(server);
  });
  after(() => server.close());

  const tags = (project: ManagedProject, rest = '') => `/projects/${project.projectId}/tags${rest}`;
  const featureTags = (project: ManagedProject, featureId: string) =>
    `/projects/${project.projectId}/features/${featureId}/tags`;
  const idea = async (project: ManagedProject, title: string) =>
    (await project.live.post('/features', { title, description: `About ${title}, in some detail.` })).body;

  it('creates, lists by name, renames, recolours and deletes tags', async () => {
    const created = await p.admin.post(tags(p), { name: '  Mobile ', color: '#A1B2C3' });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'Mobile');
    assert.equal(created.body.color, '#a1b2c3');
    assert.equal(created.body.projectId, p.projectId);
    assert.ok(Date.parse(created.body.createdAt));
    const plain = await p.admin.post(tags(p), { name: 'API' });
    assert.equal(plain.status, 201);
    assert.equal(plain.body.color, null);

    const listed = await p.member.get(tags(p));
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.tags.map((t: any) => t.name),
      ['API', 'Mobile'],
    );

    const renamed = await p.admin.patch(tags(p, `/${created.body.id}`), { name: 'Phones' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Phones');
    assert.equal(renamed.body.color, '#a1b2c3');
    const recoloured = await p.admin.patch(tags(p, `/${created.body.id}`), { color: '#000000' });
    assert.equal(recoloured.body.name, 'Phones');
    assert.equal(recoloured.body.color, '#000000');
    const uncoloured = await p.admin.patch(tags(p, `/${created.body.id}`), { color: null });
    assert.equal(uncoloured.body.color, null);

    assert.equal((await p.admin.delete(tags(p, `/${plain.body.id}`))).status, 204);
    assert.equal((await p.admin.delete(tags(p, `/${plain.body.id}`))).status, 404);
    assert.deepEqual(
      (await p.member.get(tags(p))).body.tags.map((t: any) => t.name),
      ['Phones'],
    );
  });

  it('refuses duplicate names in a project (409), not across projects', async () => {
    assert.equal((await p.admin.post(tags(p), { name: 'Billing' })).status, 201);
    const again = await p.admin.post(tags(p), { name: 'Billing' });
    assert.equal(again.status, 409);
    assert.match(again.body.error, /Billing/);
    assert.equal((await p.admin.post(tags(p), { name: ' Billing  ' })).status, 409);
    assert.equal((await q.admin.post(tags(q), { name: 'Billing' })).status, 201);
    const other = (await p.admin.post(tags(p), { name: 'Invoices' })).body;
    const clash = await p.admin.patch(tags(p, `/${other.id}`), { name: 'Billing' });
    assert.equal(clash.status, 409);
  });

  it('answers clear 400s for bad names, colours and empty updates', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /name/],
      [{ name: '' }, /name/],
      [{ name: '   ' }, /name/],
      [{ name: 'x'.repeat(41) }, /name/],
      [{ name: 42 }, /name/],
      [{ name: 'Ok', color: 'red' }, /color/],
      [{ name: 'Ok', color: '#12345' }, /color/],
      [{ name: 'Ok', color: '#1234567' }, /color/],
    ];
    for (const [body, field] of cases) {
      const response = await p.admin.post(tags(p), body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(JSON.stringify(response.body), field, JSON.stringify(body));
    }
    assert.equal((await p.admin.post(tags(p), { name: 'x'.repeat(40) })).status, 201);
    const tag = (await p.admin.post(tags(p), { name: 'Patchable' })).body;
    assert.equal((await p.admin.patch(tags(p, `/${tag.id}`), {})).status, 400);
    assert.equal((await p.admin.patch(tags(p, `/${tag.id}`), { name: ' ' })).status, 400);
    assert.equal((await p.admin.patch(tags(p, `/${tag.id}`), { color: 'blue' })).status, 400);
  });

  it('sets an idea’s tags, replacing the old ones; the board lists and filters by them', async () => {
    const a = (await p.admin.post(tags(p), { name: 'Alpha', color: '#ff0000' })).body;
    const b = (await p.admin.post(tags(p), { name: 'Beta' })).body;
    const feature = await idea(p, 'Tagged idea');
    const set = await p.admin.put(featureTags(p, feature.id), { tagIds: [b.id, a.id, a.id] });
    assert.equal(set.status, 200);
    assert.equal(set.body.featureId, feature.id);
    assert.deepEqual(
      set.body.tags.map((t: any) => t.name),
      ['Alpha', 'Beta'],
    );
    const board = await listBoardIdeas(server.db, p.projectId, { tagId: a.id, limit: 10, offset: 0 });
    assert.deepEqual(
      board.rows.map((row) => [row.id, row.tags.map((t) => t.name)]),
      [[feature.id, ['Alpha', 'Beta']]],
    );

    const replaced = await p.admin.put(featureTags(p, feature.id), { tagIds: [b.id] });
    assert.deepEqual(
      replaced.body.tags.map((t: any) => t.name),
      ['Beta'],
    );
    assert.equal((await listBoardIdeas(server.db, p.projectId, { tagId: a.id, limit: 10, offset: 0 })).total, 0);

    // Deleting a tag takes it off its ideas.
    assert.equal((await p.admin.delete(tags(p, `/${b.id}`))).status, 204);
    const after = await listBoardIdeas(server.db, p.projectId, { q: 'tagged', limit: 10, offset: 0 });
    assert.deepEqual(after.rows[0]!.tags, []);

    const cleared = await p.admin.put(featureTags(p, feature.id), { tagIds: [] });
    assert.equal(cleared.status, 200);
    assert.deepEqual(cleared.body.tags, []);
  });

  it('keeps projects apart: another project’s tag is a 400 on an idea, its tag or idea a 404', async () => {
    const mine = await idea(p, 'Mine');
    const theirs = await idea(q, 'Theirs');
    const theirTag = (await q.admin.post(tags(q), { name: 'Theirs' })).body;
    const myTag = (await p.admin.post(tags(p), { name: 'Mine' })).body;

    const foreignTag = await p.admin.put(featureTags(p, mine.id), { tagIds: [myTag.id, theirTag.id] });
    assert.equal(foreignTag.status, 400);
    assert.match(foreignTag.body.error, new RegExp(theirTag.id));
    // Nothing was written.
    assert.deepEqual(
      (await listBoardIdeas(server.db, p.projectId, { tagId: myTag.id, limit: 10, offset: 0 })).rows,
      [],
    );
    assert.equal((await p.admin.put(featureTags(p, mine.id), { tagIds: ['tag_missing'] })).status, 400);

    assert.equal((await p.admin.put(featureTags(p, theirs.id), { tagIds: [myTag.id] })).status, 404);
    assert.equal((await p.admin.put(featureTags(p, 'feat_missing'), { tagIds: [] })).status, 404);
    assert.equal((await p.admin.patch(tags(p, `/${theirTag.id}`), { name: 'Stolen' })).status, 404);
    assert.equal((await p.admin.delete(tags(p, `/${theirTag.id}`))).status, 404);
    assert.equal((await q.member.get(tags(q))).body.tags.find((t: any) => t.id === theirTag.id).name, 'Theirs');
  });

  it('needs the admin role to change tags and membership of the project to read them', async () => {
    const tag = (await p.admin.post(tags(p), { name: 'Roles' })).body;
    const feature = await idea(p, 'Role check');
    assert.equal((await p.member.get(tags(p))).status, 200);
    assert.equal((await p.member.post(tags(p), { name: 'Nope' })).status, 403);
    assert.equal((await p.member.patch(tags(p, `/${tag.id}`), { name: 'Nope' })).status, 403);
    assert.equal((await p.member.delete(tags(p, `/${tag.id}`))).status, 403);
    assert.equal((await p.member.put(featureTags(p, feature.id), { tagIds: [tag.id] })).status, 403);
    assert.equal((await p.owner.post(tags(p), { name: 'Owner made' })).status, 201);
    assert.equal((await p.outsider.get(tags(p))).status, 404);
    assert.equal((await p.outsider.post(tags(p), { name: 'Nope' })).status, 404);
    assert.equal((await p.outsider.put(featureTags(p, feature.id), { tagIds: [] })).status, 404);
    assert.equal((await managementApi(server.origin).get(tags(p))).status, 401);
  });

  it('gives one tag and one 409 for two concurrent creates of one name', async () => {
    const answers = await Promise.all([
      p.admin.post(tags(p), { name: 'Race' }),
      p.admin.post(tags(p), { name: 'Race' }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
  });
});
