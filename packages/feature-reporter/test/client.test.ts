import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sdkTestEnv } from '@signpost/test-support/env';
import {
  ApiError,
  SdkError,
  anonymousVoterId,
  createFeatureReporter,
  validateFeedback,
} from '@signpost/feature-reporter';
import { platformKey } from './support/platform.ts';

const { server, project } = await sdkTestEnv({ project: true });

const row = async (id: string) =>
  (
    await server.db.all<{
      type: string;
      status: string;
      channel: string;
      internal: number;
      metadata: string;
      contact_email: string | null;
    }>('SELECT type, status, channel, internal, metadata, contact_email FROM features WHERE id = ?', [id])
  )[0]!;

describe('submissions', () => {
  test('a feature request is stored with channel sdk, type feature, status open', async () => {
    const reporter = createFeatureReporter({
      apiKey: project.liveKey,
      baseUrl: server.baseUrl,
      metadata: { app: '1.2.3' },
    });
    const created = await reporter.submitFeature({
      title: '  Dark mode  ',
      description: 'A dark theme for the night shift.',
      metadata: { page: '/x' },
    });
    assert.equal(created.title, 'Dark mode');
    assert.equal(created.type, 'feature');
    assert.equal(created.status, 'open');
    assert.equal(created.internal, false);
    const stored = await row(created.id);
    assert.equal(stored.channel, 'sdk');
    assert.deepEqual(JSON.parse(stored.metadata), { app: '1.2.3', page: '/x' });
  });

  test('a bug is stored as type bug with status new, with its contact e-mail', async () => {
    const reporter = createFeatureReporter({ apiKey: project.liveKey, baseUrl: server.baseUrl });
    const bug = await reporter.submitBug({
      title: 'Crash on save',
      description: 'Saving a draft crashes the editor.',
      contactEmail: 'a@example.com',
    });
    assert.equal(bug.type, 'bug');
    assert.equal(bug.status, 'new');
    assert.equal((await row(bug.id)).contact_email, 'a@example.com');
  });

  test("SDK submissions stay public even with the platform project's key", async () => {
    const reporter = createFeatureReporter({ apiKey: await platformKey(server), baseUrl: server.baseUrl });
    const created = await reporter.submitFeature({ title: 'Public please', description: 'Submitted through the SDK.' });
    assert.equal(created.internal, false);
    assert.equal((await row(created.id)).internal, 0);
    assert.equal((await reporter.getFeature(created.id)).id, created.id);
  });

  test('bad input is a 400 ApiError naming the field; validateFeedback finds it before sending', async () => {
    const input = { title: 'Hi', description: 'Too short' };
    assert.deepEqual(
      validateFeedback(input).map((i) => [i.field, i.code]),
      [
        ['title', 'too_short'],
        ['description', 'too_short'],
      ],
    );
    assert.deepEqual(
      validateFeedback({ title: 'Okay title', description: 'Long enough text', contactEmail: 'nope' }).map(
        (i) => i.code,
      ),
      ['invalid_email'],
    );
    assert.deepEqual(
      validateFeedback({ title: 'x'.repeat(121), description: '' }).map((i) => i.code),
      ['too_long', 'required'],
    );
    const reporter = createFeatureReporter({ apiKey: project.liveKey, baseUrl: server.baseUrl });
    const error = await reporter.submitFeature(input).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.ok(error.body.details?.some((d) => d.field === 'title'));
  });

  test('a wrong key is a 401 ApiError; an unreachable server an SdkError', async () => {
    const wrong = createFeatureReporter({ apiKey: 'svc_live_nope', baseUrl: server.baseUrl });
    const unauthorized = await wrong.listFeatures().catch((e: unknown) => e);
    assert.ok(unauthorized instanceof ApiError && unauthorized.status === 401);
    const offline = createFeatureReporter({
      apiKey: project.liveKey,
      baseUrl: 'http://127.0.0.1:9/api/public/v1',
      maxRetries: 0,
    });
    const down = await offline.listFeatures().catch((e: unknown) => e);
    assert.ok(down instanceof SdkError && down.code === 'network_error');
  });
});

describe('the public board', () => {
  const demo = () => createFeatureReporter({ apiKey: server.demoKey, baseUrl: server.baseUrl });

  test('lists features with filters, reads one, 404 for a missing one', async () => {
    const list = await demo().listFeatures({ status: 'planned', limit: 10 });
    assert.ok(list.features.length > 0);
    assert.ok(list.features.every((f) => f.status === 'planned'));
    assert.ok(!list.features.some((f) => f.title.startsWith('Internal')));
    const one = await demo().getFeature(list.features[0]!.id);
    assert.equal(one.title, list.features[0]!.title);
    assert.equal(typeof one.description, 'string');
    const missing = await demo()
      .getFeature('nope/../x')
      .catch((e: unknown) => e);
    assert.ok(missing instanceof ApiError && missing.status === 404);
  });

  test('reads the roadmap (one or several columns) and the changelog', async () => {
    const full = await demo().getRoadmap();
    assert.deepEqual(
      full.columns.map((c) => c.status),
      ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'],
    );
    const some = await demo().getRoadmap({ status: ['planned', 'done'] });
    assert.deepEqual(
      some.columns.map((c) => c.status),
      ['planned', 'done'],
    );
    assert.equal(some.columns[0]!.items[0]!.title, 'Dark mode');
    const changelog = await demo().getChangelog({ limit: 2 });
    assert.equal(changelog.entries.length, 2);
    assert.ok(changelog.entries.every((e) => e.published));
  });

  test('votes once per voter, unvotes, and comments', async () => {
    const reporter = createFeatureReporter({ apiKey: project.liveKey, baseUrl: server.baseUrl });
    const feature = await reporter.submitFeature({ title: 'Votable', description: 'Something to vote on.' });
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    const voter = anonymousVoterId(storage);
    assert.equal(anonymousVoterId(storage), voter, 'the voter id is kept');
    assert.deepEqual(await reporter.vote(feature.id, voter), { featureId: feature.id, voteCount: 1, voted: true });
    assert.equal((await reporter.vote(feature.id, voter)).voteCount, 1);
    assert.equal((await reporter.vote(feature.id, 'someone/else')).voteCount, 2);
    assert.deepEqual(await reporter.unvote(feature.id, voter), { featureId: feature.id, voteCount: 1, voted: false });
    const comment = await reporter.addComment(feature.id, { body: 'Me too!', authorName: 'Ada' });
    assert.equal(comment.body, 'Me too!');
    await reporter.addComment(feature.id, { body: 'Second' });
    const comments = await reporter.listComments(feature.id, { limit: 10 });
    assert.deepEqual(
      comments.comments.map((c) => c.body),
      ['Me too!', 'Second'],
    );
    assert.equal((await reporter.getFeature(feature.id)).commentCount, 2);
  });
});
