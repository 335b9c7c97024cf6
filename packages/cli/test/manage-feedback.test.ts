/**
 * The feedback triage commands as users run them, against a real Signpost server: features
 * (status, visibility, merges), tags, the changelog, and bugs, errors and logs. What the CLI
 * enters is read back from the public API.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useManageServer } from './manage-support.ts';

// Five flows against one server: under a loaded machine on PostgreSQL they took over 120 s together.
describe('signpost feedback commands', { timeout: 300_000 }, () => {
  const cli = useManageServer('signpost-cli-manage-feedback-');
  const { signpost, ok, json, publicGet, publicPost } = cli;
  let liveKey: string;

  before(async () => {
    ({ liveKey } = await cli.signInWithProject('CLI App'));
  });

  it('triages features: status and visibility follow on the public roadmap; duplicates merge', async () => {
    const submit = async (title: string) => {
      const response = await fetch(`${cli.server.baseUrl}/features`, {
        method: 'POST',
        headers: { 'x-api-key': liveKey, 'content-type': 'application/json' },
        body: JSON.stringify({ title, description: `${title}, please, for everyone.` }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const keep = await submit('Dark mode');
    const dup = await submit('Night theme');
    for (const [id, voter] of [
      [keep, 'ann'],
      [dup, 'ann'],
      [dup, 'bob'],
    ] as const) {
      await fetch(`${cli.server.baseUrl}/features/${id}/votes/${voter}`, {
        method: 'PUT',
        headers: { 'x-api-key': liveKey },
      });
    }
    await ok(['features', 'update', keep, '--status', 'planned', '--notes', 'Q3']);
    const roadmap = (await publicGet('/roadmap?status=planned', liveKey)).body;
    assert.deepEqual(
      roadmap.columns[0].items.map((i: any) => i.title),
      ['Dark mode'],
    );

    const merged = await json(['features', 'merge', dup, '--into', keep]);
    assert.equal(merged.feature.voteCount, 2);
    assert.equal(merged.votesAlreadyPresent, 1);
    assert.equal((await publicGet(`/features/${keep}`, liveKey)).body.voteCount, 2);

    await ok(['features', 'update', keep, '--internal']);
    assert.deepEqual((await publicGet('/roadmap?status=planned', liveKey)).body.columns[0].items, []);
    const listed = await json(['features', 'list', '--internal']);
    assert.deepEqual(
      listed.features.map((f: any) => [f.id, f.developerNotes]),
      [[keep, 'Q3']],
    );
    assert.match((await ok(['features', 'show', keep])).stdout, /internal/);
    await ok(['features', 'delete', keep]);
    assert.equal((await json(['features', 'list'])).total, 0);
  });

  it('manages tags and tags ideas with them', async () => {
    const created = await json(['tags', 'create', 'Mobile', '--color', '#3366FF']);
    assert.equal(created.name, 'Mobile');
    assert.equal(created.color, '#3366ff');
    await ok(['tags', 'create', 'Dark mode']);
    const duplicate = await signpost(['tags', 'create', 'Mobile']);
    assert.equal(duplicate.status, 1);
    assert.match(duplicate.stderr, /already exists/);
    const badColor = await signpost(['tags', 'create', 'Web', '--color', 'blue']);
    assert.equal(badColor.status, 2);
    assert.match(badColor.stderr, /#rrggbb/);

    const listed = await ok(['tags', 'list']);
    assert.match(listed.stdout, /Dark mode[\s\S]*Mobile/);
    assert.match(listed.stdout, /#3366ff/);

    await ok(['tags', 'rename', 'mobile', 'Phones', '--color', 'none']);
    const renamed = (await json(['tags', 'list'])).tags.find((t: any) => t.id === created.id);
    assert.deepEqual([renamed.name, renamed.color], ['Phones', null]);
    assert.equal((await signpost(['tags', 'rename', 'Phones'])).status, 2);

    const feature = await publicPost('/features', liveKey, {
      title: 'Tag me',
      description: 'An idea to carry some tags.',
    });
    const tagged = await json(['features', 'tag', feature.id, 'Phones', 'Dark mode']);
    assert.deepEqual(
      tagged.tags.map((t: any) => t.name),
      ['Dark mode', 'Phones'],
    );
    assert.match((await ok(['features', 'tag', feature.id, 'Phones'])).stdout, /tagged Phones/);
    const unknown = await signpost(['features', 'tag', feature.id, 'Nope']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /No tag "Nope"/);
    assert.equal((await signpost(['features', 'tag', feature.id])).status, 2);
    assert.equal((await signpost(['features', 'tag', 'feat_missing', '--clear'])).status, 1);
    assert.match((await ok(['features', 'tag', feature.id, '--clear'])).stdout, /no tags/);

    await ok(['tags', 'delete', 'Phones']);
    await ok(['tags', 'delete', 'Dark mode']);
    assert.deepEqual((await json(['tags', 'list'])).tags, []);
    await ok(['features', 'delete', feature.id]);
  });

  it('files an idea on behalf of a person, by address or by person id (features create --for)', async () => {
    const byAddress = await json([
      'features',
      'create',
      '--for',
      'grace@people.test',
      '--name',
      'Grace Hopper',
      '--title',
      'Export to COBOL',
      '--description',
      'Asked for it in a support call.',
    ]);
    assert.equal(byAddress.status, 'open');
    assert.equal(byAddress.voteCount, 1);
    assert.equal(byAddress.contactEmail, 'grace@people.test');
    // The person the address made files the next one by id: their vote again, on the same person.
    const person = (await json(['people', 'list', '--search', 'grace'])).people[0];
    assert.equal(person.name, 'Grace Hopper');
    const byId = await json([
      'features',
      'create',
      '--for',
      person.id,
      '--title',
      'Compile to punch cards',
      '--description',
      'Asked for it in the same call.',
      '--type',
      'bug',
    ]);
    assert.equal(byId.type, 'bug');
    assert.equal(byId.voteCount, 1);
    assert.equal((await publicGet(`/features/${byId.id}`, liveKey)).body.title, 'Compile to punch cards');
    const shown = await ok([
      'features',
      'create',
      '--for',
      'ann@people.test',
      '--title',
      'Plain',
      '--description',
      'A plain idea.',
    ]);
    assert.match(shown.stdout, /Created \S+ for ann@people\.test: Plain \(open, 1 vote\)/);

    const unknown = await signpost([
      'features',
      'create',
      '--for',
      'per_missing',
      '--title',
      'Nobody',
      '--description',
      'Filed for nobody.',
    ]);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /not a person of this project/);
    const misplacedName = await signpost([
      'features',
      'create',
      '--for',
      person.id,
      '--name',
      'X',
      '--title',
      'Named',
      '--description',
      'A name without an address.',
    ]);
    assert.equal(misplacedName.status, 2);
    assert.match(misplacedName.stderr, /--name goes only with an e-mail address/);
    assert.equal(
      (await signpost(['features', 'create', '--title', 'No person', '--description', 'Nobody.'])).status,
      2,
    );
    const plain = (await json(['features', 'list', '--search', 'Plain'])).features[0].id;
    for (const id of [byAddress.id, byId.id, plain]) await ok(['features', 'delete', id]);
  });

  it('manages the changelog: what it publishes shows in the public changelog', async () => {
    const notes = join(cli.home, 'notes.html');
    writeFileSync(notes, '<p>Search is <strong>twice</strong> as fast.<script>alert(1)</script></p>');
    const entry = await json([
      'changelog',
      'create',
      '--summary',
      'Faster search',
      '--status',
      'improved',
      '--description-file',
      notes,
    ]);
    assert.equal(entry.published, false);
    assert.deepEqual((await publicGet('/changelog', liveKey)).body.entries, []);

    await ok(['changelog', 'publish', entry.id]);
    const published = (await publicGet('/changelog', liveKey)).body.entries;
    assert.equal(published.length, 1);
    assert.equal(published[0].summary, 'Faster search');
    assert.equal(published[0].statusLabel, 'Improved');
    assert.equal(published[0].description, '<p>Search is <strong>twice</strong> as fast.</p>');

    await ok(['changelog', 'edit', entry.id, '--summary', 'Much faster search']);
    assert.match((await ok(['changelog', 'list'])).stdout, /Much faster search/);
    await ok(['changelog', 'unpublish', entry.id]);
    assert.deepEqual((await publicGet('/changelog', liveKey)).body.entries, []);
    await ok(['changelog', 'delete', entry.id]);
    assert.equal((await json(['changelog', 'list'])).total, 0);
  });

  it('triages bugs, errors and logs', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${cli.server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': liveKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const report = {
      title: 'Checkout crashes',
      message: 'TypeError: total is undefined',
      errorType: 'TypeError',
      severity: 'critical',
      breadcrumbs: [{ timestamp: '2026-11-22T10:00:00.000Z', type: 'click', message: 'Pay button' }],
    };
    await post('/errors', report);
    await post('/errors', report);
    await post('/bugs', { title: 'Typo on pricing', message: 'It says pirce instead of price', severity: 'low' });
    await post('/logs', {
      logs: [
        { level: 'error', message: 'Payment timeout' },
        { level: 'info', message: 'Signed in' },
      ],
    });

    const errors = await json(['errors', 'list', '--severity', 'critical,high']);
    assert.equal(errors.total, 1);
    assert.equal(errors.errors[0].occurrences, 2);
    const shown = await ok(['errors', 'show', errors.errors[0].id]);
    assert.match(shown.stdout, /Pay button/);
    assert.match((await ok(['errors', 'list'])).stdout, /open 1, resolved 0, ignored 0/);
    await ok(['errors', 'resolve', errors.errors[0].id]);
    assert.equal((await json(['errors', 'list', '--status', 'open'])).total, 0);

    const bug = (await json(['bugs', 'list', '--search', 'pirce'])).bugs[0];
    assert.equal((await json(['bugs', 'ignore', bug.id])).status, 'ignored');
    assert.equal((await json(['logs', 'list', '--level', 'error'])).logs[0].message, 'Payment timeout');
    assert.equal((await signpost(['logs', 'list', '--level', 'fatal'])).status, 1);
    await post('/logs', {
      logs: [
        { level: 'info', message: 'Order paid', data: { orderId: 41 } },
        { level: 'info', message: 'Order paid', data: { orderId: 42 } },
      ],
    });
    const lines = await json(['logs', 'lines', '--search', 'data.orderId = 42']);
    assert.deepEqual(
      lines.lines.map((l: { message: string; data: unknown }) => [l.message, l.data]),
      [['Order paid', { orderId: 42 }]],
    );
    assert.match((await ok(['logs', 'lines', '--level', 'info'])).stdout, /"orderId":41/);

    // A value behind more lines than a search reads a page (10,000 on SQLite): found without --cursor.
    await post('/logs', { logs: [{ level: 'info', message: 'Needle order', data: { needle: 'n-1' } }] });
    for (let batch = 0; batch < 101; batch++)
      await post('/logs', {
        logs: Array.from({ length: 100 }, (_, i) => ({ level: 'debug', message: `Hay ${i}`, data: { batch } })),
      });
    const needle = await json(['logs', 'lines', '--search', 'data.needle = n-1']);
    assert.deepEqual(
      needle.lines.map((l: { message: string }) => l.message),
      ['Needle order'],
    );
  });
});
