/**
 * `signpost people` against a real Signpost server: a contact e-mail becomes a person, the
 * person's export lists their idea, erasing needs --yes, and after it the idea stays
 * (without the address). `signpost server export` and `restore` move the instance to a new database.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';

describe('signpost people commands', { timeout: 600_000 }, () => {
  const cli = useManageServer('signpost-cli-manage-people-');
  const { signpost, ok, json, publicGet, publicPost } = cli;
  let liveKey: string;

  before(async () => {
    ({ liveKey } = await cli.signInWithProject('People App'));
  });

  it('exports and erases a person', async () => {
    const idea = await publicPost('/features', liveKey, {
      title: 'Shared calendars',
      description: 'Let teams share one calendar.',
      contactEmail: 'quentin.blake@people.test',
    });
    const listed = await json(['people', 'list', '--search', 'quentin']);
    assert.equal(listed.people.length, 1);
    const id = listed.people[0].id as string;

    const file = join(cli.home, 'person.json');
    await ok(['people', 'export', id, '--out', file]);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(data.person.email, 'quentin.blake@people.test');
    assert.deepEqual(
      data.ideas.map((i: { id: string }) => i.id),
      [idea.id],
    );

    const unconfirmed = await signpost(['people', 'erase', id]);
    assert.notEqual(unconfirmed.status, 0);
    assert.match(unconfirmed.stderr, /--yes/);
    assert.deepEqual(await json(['people', 'erase-setting']), { eraseContent: 'anonymise' });
    const erased = await json(['people', 'erase', id, '--yes']);
    assert.equal(erased.ideas, 1);
    assert.equal((await json(['people', 'list', '--search', 'quentin'])).people.length, 0);
    const kept = await publicGet(`/features/${idea.id}`, liveKey);
    assert.equal(kept.status, 200);
    assert.equal(JSON.stringify(kept.body).includes('quentin'), false);
  });

  it('merges a duplicate person into another; again changes nothing', async () => {
    const idea = await publicPost('/features', liveKey, {
      title: 'Team calendars',
      description: 'One calendar per team.',
      contactEmail: 'rosa.parks@people.test',
    });
    const vote = await fetch(`${cli.server.baseUrl}/features/${idea.id}/votes/app-rosa`, {
      method: 'PUT',
      headers: { 'x-api-key': liveKey },
    });
    assert.equal(vote.status, 200);
    const kept = (await json(['people', 'list', '--search', 'rosa.parks'])).people[0].id as string;
    const all = (await json(['people', 'list'])).people as { id: string; email: string | null }[];
    const duplicate = all.find((p) => p.id !== kept && p.email === null)!.id;

    const merged = await ok(['people', 'merge', duplicate, kept]);
    assert.match(merged.stdout, new RegExp(`Merged ${duplicate} into rosa.parks@people.test`));
    assert.match(merged.stdout, /0 duplicate vote\(s\) removed/);
    const again = await json(['people', 'merge', duplicate, kept]);
    assert.equal(again.merged, false);
    assert.equal(again.person.id, kept);
    const self = await signpost(['people', 'merge', kept, kept]);
    assert.notEqual(self.status, 0);
    assert.match(self.stderr, /another person/);
  });

  it('exports the instance and restores it into a new database (signpost server export / restore)', async () => {
    const file = join(cli.home, 'instance.zip');
    const exported = await ok(['server', 'export', file, '--database-url', cli.server.database.url]);
    assert.match(exported.stdout, /Exported \d+ tables/);
    const target = `sqlite:${join(cli.home, 'restored.db')}`;
    const restored = await ok(['server', 'restore', file, '--database-url', target, '--data-dir', cli.home]);
    assert.match(restored.stdout, /Restored \d+ tables/);
    assert.match(restored.stdout, /svc_live_/);
    const again = await signpost(['server', 'restore', file, '--database-url', target, '--data-dir', cli.home]);
    assert.equal(again.status, 65);
    assert.match(again.stderr, /not empty/);
  });
});
