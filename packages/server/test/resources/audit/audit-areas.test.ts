/**
 * The areas the audit log covers since issue 36's second sitting, through the management API: the
 * changelog, tags, releases, board settings, translations, environments, status messages, webhook
 * endpoints and error status changes. Each action is performed over HTTP and then read back from
 * GET /audit: one entry, the right target, what changed, no secret (a webhook's URL path, its
 * signing secret, the board's SSO secret) anywhere in the export.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

type Entry = {
  action: string;
  target: { type: string; id: string | null };
  actor: { type: string; via: string };
  before: any;
  after: any;
};

describe('audit log: changelog, tags, releases, board, translations, environments, messages, webhooks, errors', () => {
  let server: TestServer;
  let p: ManagedProject;
  let since: string;

  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
  });
  after(async () => {
    await server.close();
  });

  const path = (rest: string) => `/projects/${p.projectId}${rest}`;

  async function ok(response: Promise<{ status: number; text: string; body: any }>, status: number) {
    const answer = await response;
    assert.equal(answer.status, status, answer.text);
    return answer.body;
  }

  /** The one entry of `action` (on `targetId` when given) since the test began. */
  async function one(action: string, targetId?: string): Promise<Entry> {
    const query: Record<string, string | number> = { action, since, limit: 200 };
    if (targetId) query['targetId'] = targetId;
    const response = await p.admin.get(path('/audit'), { query });
    assert.equal(response.status, 200, response.text);
    const found = response.body.entries as Entry[];
    assert.equal(found.length, 1, `${action} ${targetId ?? ''}: ${JSON.stringify(found)}`);
    assert.equal(found[0]!.actor.type, 'account');
    return found[0]!;
  }

  it('records changelog entries, tags and releases', async () => {
    since = new Date().toISOString();
    const idea = await ok(
      p.live.post('/features', { title: 'Audited idea', description: 'Long enough to be one.' }),
      201,
    );

    const entry = await ok(p.admin.post(path('/changelog'), { summary: 'Faster search' }), 201);
    await ok(p.admin.patch(path(`/changelog/${entry.id}`), { summary: 'Much faster search' }), 200);
    await ok(p.admin.post(path(`/changelog/${entry.id}/publish`), {}), 200);
    await ok(p.admin.delete(path(`/changelog/${entry.id}`)), 204);
    assert.equal((await one('changelog_entry.created', entry.id)).after.summary, 'Faster search');
    const edited = await one('changelog_entry.updated', entry.id);
    assert.deepEqual(edited.before, { summary: 'Faster search' });
    assert.deepEqual(edited.after, { summary: 'Much faster search' });
    const published = await one('changelog_entry.published', entry.id);
    assert.equal(published.before.state, 'draft');
    assert.equal(published.after.state, 'published');
    const deleted = await one('changelog_entry.deleted', entry.id);
    assert.equal(deleted.before.summary, 'Much faster search');
    assert.equal(deleted.after, null);
    // A missing entry: 404, nothing recorded.
    assert.equal((await p.admin.delete(path(`/changelog/${entry.id}`))).status, 404);
    await one('changelog_entry.deleted');

    const tag = await ok(p.admin.post(path('/tags'), { name: 'mobile' }), 201);
    await ok(p.admin.patch(path(`/tags/${tag.id}`), { color: '#ff0000' }), 200);
    await ok(p.admin.put(path(`/features/${idea.id}/tags`), { tagIds: [tag.id] }), 200);
    await ok(p.admin.delete(path(`/tags/${tag.id}`)), 204);
    assert.equal((await one('tag.created', tag.id)).after.name, 'mobile');
    const recoloured = await one('tag.updated', tag.id);
    assert.deepEqual(recoloured.before, { color: null });
    assert.deepEqual(recoloured.after, { color: '#ff0000' });
    const tagged = await one('feature.tags_set', idea.id);
    assert.deepEqual(tagged.before, { tagIds: [] });
    assert.deepEqual(tagged.after, { tagIds: [tag.id] });
    assert.equal((await one('tag.deleted', tag.id)).before.name, 'mobile');

    const release = await ok(p.admin.post(path('/releases'), { version: '1.4.0', title: 'Spring' }), 201);
    await ok(p.admin.patch(path('/releases/1.4.0'), { title: 'Spring release' }), 200);
    await ok(p.admin.delete(path('/releases/1.4.0')), 204);
    assert.equal((await one('release.created', release.id)).after.version, '1.4.0');
    const renamed = await one('release.updated', release.id);
    assert.deepEqual(renamed.before, { title: 'Spring' });
    assert.deepEqual(renamed.after, { title: 'Spring release' });
    assert.equal((await one('release.deleted', release.id)).before.title, 'Spring release');
  });

  it('records board settings, translations, environments and messages', async () => {
    since = new Date().toISOString();
    await ok(p.admin.patch(path('/board'), { title: 'Our board', anonymousVotes: true }), 200);
    const board = await one('board.settings_updated', p.projectId);
    assert.deepEqual(board.before, { title: null, anonymousVotes: false });
    assert.deepEqual(board.after, { title: 'Our board', anonymousVotes: true });
    const sso = await ok(p.admin.post(path('/board/sso-secret'), {}), 200);
    const rotated = await one('board.sso_secret_rotated', p.projectId);
    assert.equal(rotated.before, null);

    const was = await ok(p.admin.get(path('/translations/locales')), 200);
    const supportedLocales = [was.defaultLocale, 'de', 'pt-BR'];
    await ok(p.admin.patch(path('/translations/locales'), { supportedLocales }), 200);
    const locales = await one('translations.locales_updated', p.projectId);
    assert.deepEqual(locales.before, { supportedLocales: was.supportedLocales });
    assert.deepEqual(locales.after, { supportedLocales });
    await ok(p.admin.post(path('/translations/keys'), { key: 'home.title', defaultText: 'Home' }), 201);
    await ok(p.admin.put(path('/translations/keys/home.title/values/de'), { text: 'Startseite' }), 200);
    await ok(p.admin.delete(path('/translations/keys/home.title')), 204);
    assert.equal((await one('translation_key.created', 'home.title')).after.defaultText, 'Home');
    const text = await one('translation.set', 'home.title');
    assert.deepEqual(text.before, { translations: {} });
    assert.deepEqual(text.after, { translations: { de: 'Startseite' } });
    assert.deepEqual((await one('translation_key.deleted', 'home.title')).before.translations, { de: 'Startseite' });

    const env = await ok(p.admin.post(path('/site-config/environments'), { name: 'Staging', slug: 'staging' }), 201);
    await ok(p.admin.patch(path(`/site-config/environments/${env.id}`), { name: 'Stage' }), 200);
    await ok(p.admin.delete(path(`/site-config/environments/${env.id}`)), 204);
    assert.equal((await one('environment.created', env.id)).after.slug, 'staging');
    assert.deepEqual((await one('environment.updated', env.id)).after, { name: 'Stage' });
    assert.equal((await one('environment.deleted', env.id)).before.name, 'Stage');

    const message = await ok(
      p.admin.post(path('/site-config/messages'), { type: 'info', text: 'Maintenance at 9' }),
      201,
    );
    await ok(p.admin.patch(path(`/site-config/messages/${message.id}`), { text: 'Maintenance at 10' }), 200);
    await ok(p.admin.delete(path(`/site-config/messages/${message.id}`)), 204);
    assert.equal((await one('message.created', message.id)).after.text, 'Maintenance at 9');
    assert.deepEqual((await one('message.updated', message.id)).after, { text: 'Maintenance at 10' });
    assert.equal((await one('message.deleted', message.id)).before.text, 'Maintenance at 10');

    const exported = await p.admin.get(path('/audit/export'), { query: { format: 'jsonl', since } });
    assert.equal(exported.status, 200);
    assert.ok(!exported.text.includes(sso.secret), 'the SSO secret is in no entry');
    assert.ok(!exported.text.includes(sso.hint), 'nor its hint');
  });

  it('records webhook endpoints without their secrets, and error status changes', async () => {
    since = new Date().toISOString();
    const url = 'https://hooks.example.com/services/T0001/B0002/credentialpart';
    const hook = await ok(p.admin.post(path('/webhooks'), { url, events: ['feature.created'], format: 'slack' }), 201);
    await ok(p.admin.patch(path(`/webhooks/${hook.id}`), { url: `${url}-2`, enabled: false }), 200);
    const rotated = await ok(p.admin.post(path(`/webhooks/${hook.id}/rotate-secret`), {}), 200);
    await ok(p.admin.delete(path(`/webhooks/${hook.id}`)), 204);
    const created = await one('webhook.created', hook.id);
    assert.equal(created.after.url, 'https://hooks.example.com/…');
    assert.equal(created.after.format, 'slack');
    const changed = await one('webhook.updated', hook.id);
    assert.deepEqual(changed.before, { enabled: true, urlChanged: false });
    assert.deepEqual(changed.after, { enabled: false, urlChanged: true });
    await one('webhook.secret_rotated', hook.id);
    assert.equal((await one('webhook.deleted', hook.id)).after, null);
    const exported = await p.admin.get(path('/audit/export'), { query: { format: 'jsonl', since } });
    for (const secret of ['credentialpart', hook.secret, rotated.secret, hook.secretHint, rotated.secretHint]) {
      assert.ok(!exported.text.includes(secret), `${secret} is in no entry`);
    }

    const report = await ok(p.live.post('/errors', { title: 'Order not found', message: 'A lookup failed.' }), 201);
    await ok(p.admin.patch(path(`/errors/${report.id}`), { status: 'ignored' }), 200);
    const ignored = await one('error.status_changed', report.id);
    assert.equal(ignored.before.status, 'open');
    assert.equal(ignored.after.status, 'ignored');
    const groups = await ok(p.admin.get(path('/error-groups')), 200);
    const group = groups.groups[0];
    assert.ok(group, JSON.stringify(groups));
    await ok(p.admin.patch(path(`/error-groups/${group.id}`), { status: 'resolved' }), 200);
    const resolved = await one('error_group.status_changed', group.id);
    assert.equal(resolved.before.status, 'ignored');
    assert.deepEqual(resolved.after, { status: 'resolved', resolvedInRelease: null });
    // A group that is not there: 404, nothing recorded.
    assert.equal((await p.admin.patch(path('/error-groups/grp_missing'), { status: 'open' })).status, 404);
    await one('error_group.status_changed');
  });
});
