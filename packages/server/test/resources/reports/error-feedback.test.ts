/**
 * Sentry user feedback (issue 31): a `feedback` item sent by the real @sentry/node's
 * captureFeedback, and a legacy `user_report` item, become bug reports linked to the error group
 * of their event, shown on the group (name, e-mail, message, URL kept); feedback on an unknown
 * event is a bug report of no group; another project sees none of it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { type ManagedProject, managedProject } from '../../support/manage-fixtures.ts';
import { freePort } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const run = promisify(execFile);
const APP = fileURLToPath(new URL('../../fixtures/sentry/feedback-app.ts', import.meta.url));

describe('Sentry user feedback on error groups', () => {
  let server: TestServer;
  let p: ManagedProject;
  let dsn: string;

  before(async () => {
    const port = await freePort();
    server = await startTestServer({ env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    p = await managedProject(server);
    const key = await p.owner.post(`/projects/${p.projectId}/keys`, { environment: 'live', scopes: ['errors:write'] });
    assert.equal(key.status, 201, key.text);
    dsn = key.body.sentryDsn;
  });
  after(() => server.close());

  const envelope = async (items: [Record<string, unknown>, Record<string, unknown>][]) => {
    const url = new URL(dsn);
    const body = [
      JSON.stringify({ dsn }),
      ...items.flatMap(([header, payload]) => [JSON.stringify(header), JSON.stringify(payload)]),
    ].join('\n');
    const response = await fetch(
      `${url.protocol}//${url.host}/api${url.pathname}/envelope/?sentry_key=${url.username}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-sentry-envelope' },
        body,
      },
    );
    assert.equal(response.status, 200, await response.text());
  };

  it('links captureFeedback and user_report to the group of their event, and lists them as bug reports', async () => {
    const { stdout } = await run(process.execPath, [APP, dsn], { timeout: 60_000 });
    const eventId = stdout.trim();
    assert.match(eventId, /^[0-9a-f]{32}$/);
    const groups = await p.member.get(`/projects/${p.projectId}/error-groups`, { query: { q: 'CheckoutError' } });
    assert.equal(groups.status, 200, groups.text);
    const group = groups.body.groups[0];

    await envelope([
      [
        { type: 'user_report' },
        { event_id: eventId, name: 'Grace', email: 'grace@example.com', comments: 'Broken again' },
      ],
      [{ type: 'user_report' }, { event_id: 'f'.repeat(32), name: 'Nobody', comments: 'An event we never saw' }],
      [{ type: 'user_report' }, { event_id: eventId, comments: '' }],
    ]);

    const feedback = await p.member.get(`/projects/${p.projectId}/error-groups/${group.id}/feedback`);
    assert.equal(feedback.status, 200, feedback.text);
    const byName = Object.fromEntries(feedback.body.feedback.map((f: any) => [f.name, f]));
    assert.deepEqual(Object.keys(byName).sort(), ['Ada Lovelace', 'Grace']);
    assert.equal(byName['Ada Lovelace'].email, 'ada@example.com');
    assert.equal(byName['Ada Lovelace'].message, 'The pay button did nothing.\nI tried twice.');
    assert.equal(byName['Ada Lovelace'].url, 'https://shop.example.com/checkout');
    assert.equal(byName['Ada Lovelace'].eventId, eventId);
    assert.equal(byName.Grace.email, 'grace@example.com');

    // Bug reports: both, and the one of an unknown event, with their titles.
    const bugs = await p.member.get(`/projects/${p.projectId}/bugs`, { query: { limit: 50 } });
    assert.equal(bugs.status, 200, bugs.text);
    const titles = bugs.body.bugs.map((bug: any) => bug.title).sort();
    assert.deepEqual(titles, [
      'Feedback: An event we never saw',
      'Feedback: Broken again',
      'Feedback: The pay button did nothing.',
    ]);
    const bug = await p.member.get(`/projects/${p.projectId}/bugs/${byName['Ada Lovelace'].id}`);
    assert.equal(bug.status, 200, bug.text);

    // Scoping: another project's member cannot read the group's feedback.
    assert.equal((await p.outsider.get(`/projects/${p.projectId}/error-groups/${group.id}/feedback`)).status, 404);
    assert.equal((await p.member.get(`/projects/${p.projectId}/error-groups/eg_missing/feedback`)).status, 404);
  });
});
