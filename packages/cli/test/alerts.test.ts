/**
 * `signpost alerts …` as users run it: the CLI as a process against a real Signpost server,
 * creating, listing, changing (mute, unmute, a spike of 500 in 5 minutes) and deleting error alert
 * rules; bad options exit 2 and a refused rule 1, with nothing changed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { accountToken, runCli } from './support.ts';

// Each run of the CLI is a process: generous time for a loaded machine.
describe('signpost alerts', { timeout: 600_000 }, () => {
  let server: TestServer;
  let home: string;
  let me: string;

  const signpost = (args: string[], stdin = '') => runCli(args, home, stdin, 60_000);
  const ok = async (args: string[], stdin?: string) => {
    const run = await signpost(args, stdin);
    assert.equal(run.status, 0, `signpost ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  };
  const json = async (args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout);

  before(async () => {
    server = await startTestServer();
    home = mkdtempSync(join(tmpdir(), 'signpost-cli-alerts-'));
    const token = await accountToken(server.origin, 'alerts@example.com', 'Alerts', 'cli alerts test');
    await ok(['login', '--token', '-', '--url', server.origin], `${token}\n`);
    await ok(['projects', 'create', 'Alerts App', '--use']);
    me = (await json(['whoami'])).account.id;
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('prints --help naming every alerts command', async () => {
    const run = await ok(['alerts', '--help']);
    for (const command of ['list', 'create', 'update', 'delete'])
      assert.match(run.stdout, new RegExp(`\\n\\s+${command}\\b`));
  });

  it('creates, lists, mutes, turns into a spike of 500, unmutes and deletes a rule', async () => {
    assert.match((await ok(['alerts', 'list'])).stdout, /No alert rules\./);
    const badLevel = await signpost(['alerts', 'create', '--name', 'x', '--kind', 'new_group', '--levels', 'loud']);
    assert.equal(badLevel.status, 2);
    assert.match(badLevel.stderr, /Unknown level loud/);
    const noCount = await signpost(['alerts', 'create', '--name', 'Spike', '--kind', 'spike', '--minutes', '5']);
    assert.equal(noCount.status, 1);
    assert.match(noCount.stderr, /spikeEvents/);
    const stranger = await signpost([
      'alerts',
      'create',
      '--name',
      'x',
      '--kind',
      'new_group',
      '--recipients',
      'acc_x',
    ]);
    assert.equal(stranger.status, 1);
    assert.match(stranger.stderr, /not a member of the project team/);
    assert.deepEqual((await json(['alerts', 'list'])).rules, [], 'refused rules changed nothing');

    const created = await ok([
      'alerts',
      'create',
      '--name',
      'New in production',
      '--kind',
      'new_group',
      '--environment',
      'production',
      '--levels',
      'error,fatal',
      '--recipients',
      me,
    ]);
    const id = /Created alert rule (\S+) /.exec(created.stdout)?.[1];
    assert.ok(id, created.stdout);
    const listed = await ok(['alerts', 'list']);
    assert.match(
      listed.stdout,
      new RegExp(`${id}\\s+New in production\\s+new group\\s+production\\s+error,fatal\\s+1\\s+yes`),
    );

    const muted = await ok(['alerts', 'update', id, '--mute']);
    assert.match(muted.stdout, /\(muted\)/);
    let rule = (await json(['alerts', 'list'])).rules[0];
    assert.deepEqual(
      [rule.name, rule.kind, rule.sdkEnvironment, rule.levels, rule.recipients, rule.enabled],
      ['New in production', 'new_group', 'production', ['error', 'fatal'], [me], false],
      'an update keeps what it does not name',
    );

    rule = await json([
      'alerts',
      'update',
      id,
      '--unmute',
      '--kind',
      'spike',
      '--events',
      '500',
      '--minutes',
      '5',
      '--environment',
      'all',
      '--quiet',
      '30',
    ]);
    assert.deepEqual(
      [rule.kind, rule.spikeEvents, rule.spikeMinutes, rule.sdkEnvironment, rule.quietMinutes, rule.enabled],
      ['spike', 500, 5, null, 30, true],
    );
    const both = await signpost(['alerts', 'update', id, '--mute', '--unmute']);
    assert.equal(both.status, 2);

    // A timed mute: --mute 24h sets mutedUntil a day from now and keeps the rule on; list and
    // update show it; a time the server does not take exits 2; --unmute clears it.
    const from = Date.now();
    const day = await ok(['alerts', 'update', id, '--mute', '24h']);
    assert.match(day.stdout, /\(muted until \d{4}-\d\d-\d\dT/);
    rule = (await json(['alerts', 'list'])).rules[0];
    const until = Date.parse(rule.mutedUntil);
    assert.ok(until >= from + 86_400_000 && until <= Date.now() + 86_400_000, rule.mutedUntil);
    assert.deepEqual([rule.enabled, rule.kind, rule.spikeEvents], [true, 'spike', 500], 'the rule is kept');
    assert.match((await ok(['alerts', 'list'])).stdout, new RegExp(`${id}.*until ${rule.mutedUntil}`));
    const kept = await json(['alerts', 'update', id, '--quiet', '45']);
    assert.deepEqual([kept.quietMinutes, kept.mutedUntil], [45, rule.mutedUntil], 'an update keeps the mute');
    const badTime = await signpost(['alerts', 'update', id, '--mute', '2h']);
    assert.equal(badTime.status, 2);
    assert.match(badTime.stderr, /1h, 24h, 7d, forever/);
    rule = await json(['alerts', 'update', id, '--unmute']);
    assert.deepEqual([rule.enabled, rule.mutedUntil], [true, null]);

    assert.deepEqual(await json(['alerts', 'delete', id]), { deleted: id });
    const gone = await signpost(['alerts', 'delete', id]);
    assert.equal(gone.status, 1);
    assert.deepEqual((await json(['alerts', 'list'])).rules, []);
  });
});
