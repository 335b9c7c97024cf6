/**
 * Error alerts (issue 31) with the real @sentry/node, a real mailbox and a real webhook receiver:
 * new-group, regression and spike rules e-mail the chosen member (filtered by SDK environment and
 * level) and post error.alert to the project's webhooks, a spike at most once per quiet period;
 * webhooks tell of each new error group once; rules' validation, roles and scoping.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { type Mailbox, startMailbox } from '../../support/mailbox.ts';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { freePort } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startWebhookReceiver, verified, type WebhookReceiver } from '../../support/webhook-receiver.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/alert-app.ts', import.meta.url));

describe('Error alerts with @sentry/node', () => {
  let server: TestServer;
  let mailbox: Mailbox;
  let receiver: WebhookReceiver;
  let dsn: string;
  let p: ManagedProject;
  let memberId: string;
  let memberEmail: string;
  let outsiderId: string;
  let hookSecret: string;
  const sentry = async (environment: string, name: string, times: number) => {
    const { stdout } = await run(process.execPath, [APP, dsn, environment, name, String(times)], { timeout: 300_000 });
    assert.equal(stdout.trim(), 'flushed');
  };
  const mailsTo = (subject: string) =>
    mailbox.messages.filter((mail) => mail.to.includes(memberEmail) && mail.subject.startsWith(subject));
  const groupOf = async (title: string) => {
    const response = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: title } });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.groups.length, 1, response.text);
    return response.body.groups[0];
  };
  const rule = (body: Record<string, unknown>) =>
    p.admin.post(`/projects/${p.projectId}/error-alerts`, { recipients: [memberId], ...body });

  before(async () => {
    mailbox = await startMailbox();
    receiver = await startWebhookReceiver();
    const port = await freePort();
    server = await startTestServer({
      env: {
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: mailbox.url,
        WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOKS_POLL_MS: '50',
        ERROR_ALERT_POLL_MS: '50',
        ERROR_ALERT_TICK_MS: '200',
      },
    });
    p = await managedProject(server);
    const members = await server.db.all<{ id: string; email: string; role: string }>(
      `SELECT a.id, a.email, m.role FROM team_members m JOIN accounts a ON a.id = m.account_id WHERE m.team_id = ?`,
      [p.teamId],
    );
    const member = members.find((m) => m.role === 'member')!;
    memberId = member.id;
    memberEmail = member.email;
    const outsider = await server.db.get<{ id: string }>(
      "SELECT id FROM accounts WHERE email LIKE 'outsider-%' ORDER BY created_at DESC LIMIT 1",
    );
    outsiderId = outsider!.id;
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['errors:write'] });
    assert.equal(key.status, 201, key.text);
    dsn = key.body.sentryDsn;
    const hook = await p.admin.post(`/projects/${p.projectId}/webhooks`, {
      url: `${receiver.origin}/ok/hook`,
      events: ['error.alert', 'error.new_group'],
    });
    assert.equal(hook.status, 201, hook.text);
    hookSecret = hook.body.secret;
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await mailbox.close();
  });

  it('validates rules, and lets admins change them and members read them', async () => {
    const spikeWithoutCount = await rule({ name: 'Spike', kind: 'spike', spikeMinutes: 5 });
    assert.equal(spikeWithoutCount.status, 400, spikeWithoutCount.text);
    assert.equal(spikeWithoutCount.body.details[0].field, 'spikeEvents');
    const stranger = await rule({ name: 'New', kind: 'new_group', recipients: [outsiderId] });
    assert.equal(stranger.status, 400, stranger.text);
    assert.equal(stranger.body.details[0].field, 'recipients');
    assert.equal((await rule({ name: 'x', kind: 'sometimes' })).status, 400);
    assert.equal((await rule({ name: 'Spike', kind: 'spike', spikeEvents: 2_000_000, spikeMinutes: 5 })).status, 400);
    assert.equal((await rule({ name: 'Spike', kind: 'spike', spikeEvents: 5, spikeMinutes: 1441 })).status, 400);
    const byMember = await p.member.post(`/projects/${p.projectId}/error-alerts`, {
      name: 'New',
      kind: 'new_group',
      recipients: [],
    });
    assert.equal(byMember.status, 403, byMember.text);
    assert.equal((await p.outsider.get(`/projects/${p.projectId}/error-alerts`)).status, 404);
    const list = await p.member.get(`/projects/${p.projectId}/error-alerts`);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.rules, [], 'bad rules changed nothing');
  });

  it('e-mails and posts a new group and a regression, filtered by SDK environment', async () => {
    const created = await rule({ name: 'New in production', kind: 'new_group', sdkEnvironment: 'production' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.quietMinutes, 60);
    assert.equal((await rule({ name: 'Regressions', kind: 'regression' })).status, 201);

    await sentry('staging', 'StagingOnlyError', 1);
    await sentry('production', 'PaymentError', 2);
    const mail = await mailbox.waitFor((m) => m.subject.startsWith('New error') && m.subject.includes('PaymentError'));
    assert.deepEqual(mail.to, [memberEmail]);
    assert.match(mail.text, /Alert rule "New in production"/);
    const group = await groupOf('PaymentError');
    assert.ok(
      mail.links.some((link) => link.endsWith(`/errors/groups/${group.id}`)),
      mail.text,
    );

    const resolved = await p.admin.patch(`/projects/${p.projectId}/error-groups/${group.id}`, { status: 'resolved' });
    assert.equal(resolved.status, 200, resolved.text);
    await sentry('production', 'PaymentError', 1);
    const regressed = await mailbox.waitFor((m) => m.subject.startsWith('Error regressed'));
    assert.match(regressed.subject, /PaymentError/);

    // Home's "Needs attention" lists the regressed group and the new staging one.
    const attention = await p.member.get('/me/attention');
    assert.equal(attention.status, 200, attention.text);
    const listed = attention.body.errorGroups.map((g: any) => [g.title.split(':')[0], g.status]);
    assert.deepEqual(listed.sort(), [
      ['PaymentError', 'regressed'],
      ['StagingOnlyError', 'open'],
    ]);
    assert.deepEqual((await p.outsider.get('/me/attention')).body.errorGroups, [], 'no other team sees them');

    await sleep(500);
    assert.equal(mailsTo('New error').length, 1, 'one e-mail for the production group, none for staging');
    // Webhooks: one error.new_group per group (two groups), and error.alert for each firing.
    const bodies = receiver.to('/ok/hook').map((request) => verified(hookSecret, request));
    const newGroups = bodies.filter((body) => body.type === 'error.new_group');
    assert.equal(newGroups.length, 2, JSON.stringify(newGroups));
    assert.ok(newGroups.some((body) => body.data.groupId === group.id));
    const alerts = bodies.filter((body) => body.type === 'error.alert');
    assert.deepEqual(alerts.map((body) => body.data.rule.reason).sort(), ['new_group', 'regression']);
    assert.equal(alerts[0].data.groupId, group.id);
  });

  it('sends exactly one e-mail for a spike within its quiet period', async () => {
    const created = await rule({
      name: 'Checkout spike',
      kind: 'spike',
      spikeEvents: 5,
      spikeMinutes: 10,
      levels: ['error', 'fatal'],
    });
    assert.equal(created.status, 201, created.text);
    await sentry('production', 'QuietError', 4);
    await sleep(700);
    assert.equal(mailsTo('Error spike').length, 0, 'four events are no spike of five');
    await sentry('production', 'SpikeError', 6);
    const mail = await mailbox.waitFor((m) => m.subject.startsWith('Error spike') && m.subject.includes('SpikeError'));
    assert.match(mail.text, /6 events in 10 minutes/);
    await sentry('production', 'SpikeError', 6);
    await sleep(1000);
    assert.equal(mailsTo('Error spike').length, 1, 'one e-mail per rule and group within the quiet period');
    const bodies = receiver.to('/ok/hook').map((request) => verified(hookSecret, request));
    assert.equal(bodies.filter((body) => body.type === 'error.alert' && body.data.rule.reason === 'spike').length, 1);
  });

  it('edits, mutes, unmutes and deletes a rule; members and other projects cannot', async () => {
    const created = await rule({ name: 'Edited later', kind: 'new_group', sdkEnvironment: 'qa' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    const url = `/projects/${p.projectId}/error-alerts/${id}`;
    const body = {
      name: 'Muted QA',
      kind: 'regression',
      sdkEnvironment: 'qa',
      levels: ['error'],
      recipients: [memberId],
    };
    assert.equal((await p.member.put(url, { ...body, enabled: false })).status, 403, 'members only read');
    assert.equal((await p.admin.put(url, { ...body, recipients: [outsiderId] })).status, 400);
    assert.equal((await p.member.get(url)).body.name, 'Edited later', 'a refused edit changed nothing');
    const muted = await p.admin.put(url, { ...body, enabled: false });
    assert.equal(muted.status, 200, muted.text);
    assert.deepEqual(
      [muted.body.name, muted.body.kind, muted.body.levels, muted.body.enabled, muted.body.quietMinutes],
      ['Muted QA', 'regression', ['error'], false, 60],
    );
    assert.ok(muted.body.updatedAt >= created.body.updatedAt);
    // A muted rule fires for nothing: a new QA group and its regression send no e-mail.
    const newQa = await rule({ name: 'New QA (muted)', kind: 'new_group', sdkEnvironment: 'qa', enabled: false });
    assert.equal(newQa.status, 201, newQa.text);
    await sentry('qa', 'MutedQaError', 1);
    await p.admin.patch(`/projects/${p.projectId}/error-groups/${(await groupOf('MutedQaError')).id}`, {
      status: 'resolved',
    });
    await sentry('qa', 'MutedQaError', 1);
    await sleep(700);
    const fromMuted = mailbox.messages.filter((m) => /Alert rule "(Muted QA|New QA \(muted\))"/.test(m.text));
    assert.equal(fromMuted.length, 0, 'muted rules are quiet');
    // The project's unmuted regression rule (above) did fire: the group did regress.
    assert.equal(mailbox.messages.filter((m) => m.subject.includes('MutedQaError')).length, 1);

    const unmuted = await p.admin.put(url, { ...body, enabled: true });
    assert.equal(unmuted.body.enabled, true);
    assert.equal((await p.outsider.get(url)).status, 404, 'another team sees no rule');
    const elsewhere = await managedProject(server);
    assert.equal((await elsewhere.admin.get(`/projects/${elsewhere.projectId}/error-alerts/${id}`)).status, 404);
    assert.equal((await elsewhere.admin.delete(`/projects/${elsewhere.projectId}/error-alerts/${id}`)).status, 404);
    assert.equal((await p.member.delete(url)).status, 403);
    assert.equal((await p.admin.delete(url)).status, 204);
    assert.equal((await p.admin.delete(url)).status, 404);
    assert.equal((await p.member.get(url)).status, 404);
    assert.equal((await p.admin.delete(`/projects/${p.projectId}/error-alerts/${newQa.body.id}`)).status, 204);
  });

  it('mutes a rule for 1h, 24h or 7d (mutedUntil), until unmuted, and unmutes it; the worker honours it', async () => {
    const hour = 3_600_000;
    const near = (iso: string, from: number, to: number, ms: number) => {
      const at = Date.parse(iso);
      assert.ok(at >= from + ms && at <= to + ms, `${iso} is not ${ms} ms from now`);
    };
    let from = Date.now();
    const created = await rule({ name: 'Timed mute', kind: 'new_group', sdkEnvironment: 'muted', mute: '24h' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.enabled, true);
    near(created.body.mutedUntil, from, Date.now(), 24 * hour);
    const id = created.body.id as string;
    const url = `/projects/${p.projectId}/error-alerts/${id}`;
    const body = { name: 'Timed mute', kind: 'new_group', sdkEnvironment: 'muted', recipients: [memberId] };
    from = Date.now();
    const week = await p.admin.put(url, { ...body, mute: '7d' });
    assert.equal(week.status, 200, week.text);
    near(week.body.mutedUntil, from, Date.now(), 7 * 24 * hour);
    from = Date.now();
    const oneHour = await p.admin.put(url, { ...body, mute: '1h' });
    near(oneHour.body.mutedUntil, from, Date.now(), hour);
    // Bad mutes are refused with nothing changed.
    for (const bad of [{ mute: '2h' }, { mutedUntil: 'soon' }, { mute: '1h', mutedUntil: null }]) {
      const refused = await p.admin.put(url, { ...body, name: 'Renamed', ...bad });
      assert.equal(refused.status, 400, `${JSON.stringify(bad)}: ${refused.text}`);
    }
    assert.equal((await p.member.put(url, { ...body, mute: 'off' })).status, 403, 'members only read');
    // A replacement that names no mute keeps it (the dashboard's edit form, the CLI's update).
    const renamed = await p.admin.put(url, { ...body, name: 'Timed mute (renamed)' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.mutedUntil, oneHour.body.mutedUntil);
    assert.equal((await p.member.get(url)).body.mutedUntil, oneHour.body.mutedUntil, 'members read it');

    // Muted for the hour: a new group sends no e-mail, nor error.alert.
    const fromRule = () => mailbox.messages.filter((m) => m.text.includes('Alert rule "Timed mute'));
    await sentry('muted', 'TimedMuteError', 1);
    await groupOf('TimedMuteError');
    await sleep(700);
    assert.equal(fromRule().length, 0, 'a rule muted for a time is quiet');
    // A mute whose time has passed is over by itself: the next new group alerts.
    const past = await p.admin.put(url, { ...body, mutedUntil: new Date(Date.now() - 60_000).toISOString() });
    assert.equal(past.status, 200, past.text);
    await sentry('muted', 'AfterMuteError', 1);
    const mail = await mailbox.waitFor((m) => m.subject.includes('AfterMuteError') && m.text.includes('"Timed mute"'));
    assert.match(mail.subject, /^New error/);
    assert.equal(fromRule().length, 1, 'only the group after the mute alerted');

    // Until unmuted, then unmuted: `forever` switches the rule off, `off` clears both.
    const forever = await p.admin.put(url, { ...body, mute: 'forever' });
    assert.deepEqual([forever.body.enabled, forever.body.mutedUntil], [false, null]);
    const off = await p.admin.put(url, { ...body, mute: '7d' }).then(() => p.admin.put(url, { ...body, mute: 'off' }));
    assert.deepEqual([off.body.enabled, off.body.mutedUntil], [true, null]);
    assert.equal((await p.admin.delete(url)).status, 204);

    // The worker's spike tick honours it too: muted, 3 events of a rule of 2 fire nothing; unmuted, they do.
    const spike = await rule({
      name: 'Muted spike',
      kind: 'spike',
      sdkEnvironment: 'muted',
      spikeEvents: 2,
      spikeMinutes: 10,
      mute: '1h',
    });
    assert.equal(spike.status, 201, spike.text);
    await sentry('muted', 'MutedSpikeError', 3);
    const spikeGroup = await groupOf('MutedSpikeError');
    assert.equal(spikeGroup.events, 3, 'the events were counted');
    await sleep(1000);
    const spikeMails = () => mailbox.messages.filter((m) => m.text.includes('Alert rule "Muted spike"'));
    assert.equal(spikeMails().length, 0, 'a spike rule muted for a time is quiet');
    const spikeUrl = `/projects/${p.projectId}/error-alerts/${spike.body.id}`;
    const unmuted = await p.admin.put(spikeUrl, {
      name: 'Muted spike',
      kind: 'spike',
      sdkEnvironment: 'muted',
      spikeEvents: 2,
      spikeMinutes: 10,
      recipients: [memberId],
      mute: 'off',
    });
    assert.equal(unmuted.status, 200, unmuted.text);
    await mailbox.waitFor((m) => m.subject.startsWith('Error spike') && m.text.includes('"Muted spike"'));
    assert.equal((await p.admin.delete(spikeUrl)).status, 204);
  });

  it('counts a spike from every event, not the hundred a group keeps: 500 in 5 minutes fires', async () => {
    const created = await rule({ name: 'Big spike', kind: 'spike', spikeEvents: 500, spikeMinutes: 5 });
    assert.equal(created.status, 201, created.text);
    const bigSpikes = () => mailsTo('Error spike').filter((m) => m.text.includes('"Big spike"'));
    await sentry('production', 'BurstError', 450);
    let group = await groupOf('BurstError');
    for (let i = 0; i < 100 && group.events < 450; i++) {
      await sleep(100);
      group = await groupOf('BurstError');
    }
    assert.equal(group.events, 450, 'every event counted');
    await sleep(700);
    assert.equal(bigSpikes().length, 0, '450 events are no spike of 500');
    await sentry('production', 'BurstError', 60);
    const mail = await mailbox.waitFor((m) => m.subject.startsWith('Error spike') && m.text.includes('"Big spike"'));
    assert.match(mail.subject, /BurstError/);
    const counted = Number(/(\d+) events in 5 minutes/.exec(mail.text)?.[1]);
    assert.ok(counted >= 500 && counted <= 510, mail.text);
    await sleep(700);
    assert.equal(bigSpikes().length, 1, 'once per quiet period');
  });
});
