/**
 * The issue-34 agent scenario (test/support/mcp-scenario.ts) checked end to end: the most-voted
 * open idea planned with one follower e-mail queued, the newest error group linked to it and
 * resolved, the idea done when 1.3.0 is created, the flag off for test keys, every call in the
 * audit log as via mcp. scripts/mcp-scenario.ts writes the same session to docs/mcp-scenario.md.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runScenario, transcript, type ScenarioRun } from '../support/mcp-scenario.ts';

describe('the agent scenario: triage, debug, release', () => {
  let run: ScenarioRun;
  before(async () => {
    run = await runScenario();
  });
  after(async () => {
    await run?.server.close();
  });

  it('runs every step without a tool error, within the tools/list budget', () => {
    assert.equal(run.steps.filter((step) => step.isError).length, 0);
    assert.ok(run.steps.length >= 18);
    assert.equal(run.tools.count, 13);
    assert.ok(run.tools.tokens <= 5000, `${run.tools.tokens} tokens`);
  });

  it('leaves the project as a team member would', async () => {
    const { project: p, server, ideaId, groupId, followerId } = run;
    const idea = await p.admin.get(`/projects/${p.projectId}/features/${ideaId}`);
    assert.equal(idea.body.status, 'done');
    const outbox = await server.db.all<{ user_id: string }>(
      'SELECT DISTINCT user_id FROM notification_outbox WHERE feature_id = ?',
      [ideaId],
    );
    assert.deepEqual(
      outbox.map((row) => row.user_id),
      [followerId],
    );
    const links = await p.admin.get(`/projects/${p.projectId}/features/${ideaId}/error-links`);
    assert.deepEqual(
      links.body.groups.map((g: any) => g.id),
      [groupId],
    );
    const comments = await p.admin.get(`/projects/${p.projectId}/features/${ideaId}/comments`);
    assert.deepEqual(
      comments.body.comments.map((c: any) => c.internal),
      [false, true],
    );
    const audit = await p.admin.get(`/projects/${p.projectId}/audit`, { query: { limit: '50' } });
    assert.ok(audit.body.entries.some((entry: any) => entry.actor.via === 'mcp'));
  });

  it('writes a transcript with every call and its answer', () => {
    const text = transcript(run);
    assert.match(text, /^# An agent session through the hosted MCP server/);
    for (const step of run.steps) assert.ok(text.includes(`> ${step.summary}`), step.summary);
    assert.match(text, /checkout\.js/);
  });
});
