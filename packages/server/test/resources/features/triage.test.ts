/**
 * Triage: submissions stay `open` (the spec) but untriaged until the team acts on them: a status
 * change, an edit or "mark triaged" sets `triagedAt`; the inbox's `triaged=false` view lists the
 * rest (held ones are left to moderation). Bad input is a 400 that changes nothing; another
 * project's ids are ignored; an outsider sees nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { heldIdea } from '../../support/moderation.ts';

describe('management: triage', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
  });
  after(async () => server?.close());

  const features = (query = '') => `/projects/${p.projectId}/features${query}`;
  async function idea(title: string): Promise<string> {
    const created = await p.live.post('/features', { title, description: `${title}, described.` });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'open');
    return created.body.id;
  }
  const untriaged = async () =>
    ((await p.member.get(features('?triaged=false&limit=200'))).body.features as any[]).map((f) => f.id);

  it('lists what nobody acted on; a status change, an edit or marking triages it', async () => {
    const [a, b, c, d] = [
      await idea('Alpha idea'),
      await idea('Beta idea'),
      await idea('Gamma idea'),
      await idea('Delta'),
    ];
    const held = await heldIdea(server, p, 'Held idea for moderation');
    const list = await p.member.get(features('?triaged=false'));
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.features.map((f: any) => f.id),
      [d, c, b, a],
    );
    assert.equal(list.body.total, 4);
    assert.ok(list.body.features.every((f: any) => f.triagedAt === null));
    assert.ok(!(await untriaged()).includes(held));

    assert.equal((await p.admin.patch(features(`/${a}`), { status: 'planned' })).status, 200);
    const edited = await p.admin.patch(features(`/${b}`), { title: 'Beta idea, clearer' });
    assert.equal(edited.status, 200);
    assert.ok(edited.body.triagedAt);
    // A team reply triages too.
    const replied = await idea('Answered by the team');
    assert.equal(
      (await p.admin.post(features(`/${replied}/comments`), { body: 'Thanks, looking into it' })).status,
      201,
    );
    assert.ok((await p.member.get(features(`/${replied}`))).body.triagedAt);
    // Marking is a write: a member may not, an admin may.
    assert.equal((await p.member.post(features('/triage'), { ids: [c] })).status, 403);
    const marked = await p.admin.post(features('/triage'), { ids: [c] });
    assert.deepEqual(marked.body.triaged, [c]);
    assert.deepEqual(await untriaged(), [d]);
    const triaged = await p.member.get(features('?triaged=true'));
    assert.deepEqual(triaged.body.features.map((f: any) => f.id).sort(), [a, b, c, replied].sort());

    // Marking again keeps the first time.
    const first = (await p.member.get(features(`/${c}`))).body.triagedAt;
    await p.admin.post(features('/triage'), { ids: [c] });
    assert.equal((await p.member.get(features(`/${c}`))).body.triagedAt, first);
  });

  it('refuses bad input and ignores other projects', async () => {
    const mine = await idea('Mine to triage');
    for (const body of [{}, { ids: [] }, { ids: 'x' }, { ids: [mine, mine] }, { ids: [mine], extra: 1 }]) {
      const refused = await p.admin.post(features('/triage'), body);
      assert.equal(refused.status, 400, JSON.stringify(body));
    }
    assert.ok((await untriaged()).includes(mine));
    const other = await managedProject(server);
    const theirs = (await other.live.post('/features', { title: 'Their idea', description: 'Not yours at all.' })).body
      .id;
    const cross = await p.admin.post(features('/triage'), { ids: [theirs] });
    assert.deepEqual(cross.body.triaged, []);
    assert.equal((await other.member.get(`/projects/${other.projectId}/features/${theirs}`)).body.triagedAt, null);
    const outsider = await p.outsider.post(features('/triage'), { ids: [mine] });
    assert.equal(outsider.status, 404);
    assert.ok((await untriaged()).includes(mine));
  });
});
