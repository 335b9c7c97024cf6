/**
 * `signpost people` against a real Signpost server: a contact e-mail and a voter become people,
 * a person's export lists their idea and vote, erasing needs --yes, and after it the idea stays
 * (without the address) and the vote still counts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';

describe('signpost people commands', { timeout: 120_000 }, () => {
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
});
