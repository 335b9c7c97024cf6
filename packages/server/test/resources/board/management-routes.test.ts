import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { managedProject, type ManagedProject } from '../../support/manage-fixtures.ts';
import { boardSsoSecret, readBoard } from '../../../src/resources/board/index.ts';

const PUBLIC_URL = 'https://signpost.example.test';

describe('management: board settings', () => {
  let server: TestServer;
  let p: ManagedProject;
  let other: ManagedProject;

  before(async () => {
    server = await startTestServer({ env: { PUBLIC_URL } });
    p = await managedProject(server);
    other = await managedProject(server);
  });
  after(() => server.close());

  const path = (project: ManagedProject = p, rest = '') => `/projects/${project.projectId}/board${rest}`;
  const settings = async (project: ManagedProject = p) => {
    const response = await project.member.get(path(project));
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  it("a new project's board is off, at <PUBLIC_URL>/b/<slug>, with no SSO secret", async () => {
    assert.deepEqual(await settings(), {
      enabled: false,
      private: false,
      title: null,
      logoUrl: null,
      accentColor: null,
      customDomain: null,
      anonymousVotes: false,
      moderation: false,
      shipOnPublish: true,
      roadmapColumns: ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done'].map((status) => ({
        status,
        label: null,
      })),
      url: `${PUBLIC_URL}/b/${p.projectId}`,
      sso: { configured: false, hint: null },
    });
    // A project made through the management API too.
    const created = await p.owner.post('/projects', { name: 'Board less', slug: 'board-less' });
    assert.equal(created.status, 201, created.text);
    const board = await p.owner.get(`/projects/${created.body.id}/board`);
    assert.equal(board.body.enabled, false);
    assert.equal(board.body.url, `${PUBLIC_URL}/b/board-less`);
  });

  it("the demo project's board is on and public", async () => {
    const demo = await readBoard(server.db, server.demoProjectId);
    assert.equal(demo.enabled, true);
    assert.equal(demo.private, false);
  });

  it('changes any subset of the settings; the answer and a later read agree', async () => {
    const changed = await p.admin.patch(path(), {
      enabled: true,
      private: true,
      title: '  Acme ideas  ',
      logoUrl: 'https://cdn.example.com/logo.svg',
      accentColor: '#1A2B3C',
      customDomain: 'Feedback.Acme.Example',
      anonymousVotes: true,
      moderation: true,
      shipOnPublish: false,
    });
    assert.equal(changed.status, 200, changed.text);
    const expected = {
      enabled: true,
      private: true,
      title: 'Acme ideas',
      logoUrl: 'https://cdn.example.com/logo.svg',
      accentColor: '#1a2b3c',
      customDomain: 'feedback.acme.example',
      anonymousVotes: true,
      moderation: true,
      shipOnPublish: false,
      roadmapColumns: ['open', 'planned', 'in-progress', 'in-review', 'accepted', 'done'].map((status) => ({
        status,
        label: null,
      })),
      url: 'https://feedback.acme.example/',
      sso: { configured: false, hint: null },
    };
    assert.deepEqual(changed.body, expected);
    assert.deepEqual(await settings(), expected);

    const partly = await p.admin.patch(path(), { private: false, title: null, customDomain: null });
    assert.equal(partly.status, 200, partly.text);
    assert.deepEqual(partly.body, {
      ...expected,
      private: false,
      title: null,
      customDomain: null,
      url: `${PUBLIC_URL}/b/${p.projectId}`,
    });
    // http is fine for a logo on this machine (development).
    const local = await p.admin.patch(path(), { logoUrl: 'http://localhost:5173/logo.png' });
    assert.equal(local.status, 200, local.text);
    assert.equal(local.body.logoUrl, 'http://localhost:5173/logo.png');
  });

  it('refuses bad values with a 400 naming the field, and changes nothing', async () => {
    const before = await settings();
    const cases: [Record<string, unknown>, string][] = [
      [{}, '(body)'],
      [{ title: 'x'.repeat(81) }, 'title'],
      [{ title: '   ' }, 'title'],
      [{ logoUrl: 'http://cdn.example.com/logo.png' }, 'logoUrl'],
      [{ logoUrl: 'ftp://cdn.example.com/logo.png' }, 'logoUrl'],
      [{ logoUrl: 'not a url' }, 'logoUrl'],
      [{ logoUrl: `https://cdn.example.com/${'a'.repeat(480)}.png` }, 'logoUrl'],
      [{ logoUrl: 'https://user:pw@cdn.example.com/logo.png' }, 'logoUrl'],
      [{ accentColor: '#fff' }, 'accentColor'],
      [{ accentColor: 'red' }, 'accentColor'],
      [{ customDomain: 'https://feedback.example.com' }, 'customDomain'],
      [{ customDomain: 'feedback.example.com:8443' }, 'customDomain'],
      [{ customDomain: 'feedback.example.com/board' }, 'customDomain'],
      [{ customDomain: 'localhost' }, 'customDomain'],
      [{ customDomain: '10.0.0.1' }, 'customDomain'],
      [{ customDomain: 'under_score.example.com' }, 'customDomain'],
      [{ customDomain: 'signpost.example.test' }, 'customDomain'],
      [{ customDomain: 'SIGNPOST.example.test' }, 'customDomain'],
      [{ enabled: 'yes' }, 'enabled'],
      [{ moderation: 1 }, 'moderation'],
      [{ colour: '#123456' }, 'colour'],
    ];
    for (const [fields, field] of cases) {
      // Each bad field travels with good ones: none of them may be written.
      const body = { enabled: !before.enabled, title: 'Changed', ...fields };
      const response = await p.admin.patch(path(), Object.keys(fields).length === 0 ? {} : body);
      assert.equal(response.status, 400, `${JSON.stringify(fields)}: ${response.text}`);
      assert.ok(
        response.body.details?.some((d: any) => d.field.includes(field)) || response.body.error.includes(field),
        `${JSON.stringify(fields)} names ${field}: ${response.text}`,
      );
    }
    assert.deepEqual(await settings(), before);
  });

  it("a custom domain another project's board has is a 409; freed, it can be taken", async () => {
    const taken = await p.admin.patch(path(), { customDomain: 'ideas.shared.example' });
    assert.equal(taken.status, 200, taken.text);
    const before = await settings(other);
    const clash = await other.admin.patch(path(other), { enabled: true, customDomain: 'IDEAS.shared.example' });
    assert.equal(clash.status, 409, clash.text);
    assert.match(clash.body.error, /custom domain/);
    assert.deepEqual(await settings(other), before);
    // Setting one's own domain again is no clash.
    assert.equal((await p.admin.patch(path(), { customDomain: 'ideas.shared.example' })).status, 200);
    assert.equal((await p.admin.patch(path(), { customDomain: null })).status, 200);
    const moved = await other.admin.patch(path(other), { customDomain: 'ideas.shared.example' });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.url, 'https://ideas.shared.example/');
  });

  it('shows the SSO secret once; rotating replaces it; the hint is its last characters', async () => {
    assert.equal(await boardSsoSecret(server.db, { secretKey: undefined }, p.projectId), undefined);
    const first = await p.admin.post(path(p, '/sso-secret'));
    assert.equal(first.status, 200, first.text);
    assert.match(first.body.secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(first.body.hint, `…${first.body.secret.slice(-4)}`);
    const shown = await settings();
    assert.deepEqual(shown.sso, { configured: true, hint: first.body.hint });
    assert.ok(!JSON.stringify(shown).includes(first.body.secret), 'the settings never carry the secret');
    assert.equal(await boardSsoSecret(server.db, { secretKey: undefined }, p.projectId), first.body.secret);

    const second = await p.owner.post(path(p, '/sso-secret'));
    assert.equal(second.status, 200, second.text);
    assert.notEqual(second.body.secret, first.body.secret);
    assert.deepEqual((await settings()).sso, { configured: true, hint: second.body.hint });
    assert.equal(await boardSsoSecret(server.db, { secretKey: undefined }, p.projectId), second.body.secret);
    // Each project has its own secret.
    const others = await other.admin.post(path(other, '/sso-secret'));
    assert.notEqual(others.body.secret, second.body.secret);
  });

  it('members read; changing settings and rotating the secret need the admin role; other teams get 404', async () => {
    const before = await settings();
    const memberPatch = await p.member.patch(path(), { enabled: !before.enabled });
    assert.equal(memberPatch.status, 403);
    assert.match(memberPatch.body.error, /admin role/);
    assert.equal((await p.member.post(path(p, '/sso-secret'))).status, 403);
    assert.equal((await p.outsider.get(path())).status, 404);
    assert.equal((await p.outsider.patch(path(), { enabled: !before.enabled })).status, 404);
    assert.equal((await p.outsider.post(path(p, '/sso-secret'))).status, 404);
    // An admin of another project reaches only their own.
    assert.equal((await other.admin.patch(path(p), { enabled: !before.enabled })).status, 404);
    assert.equal((await p.admin.get('/projects/no-such-project/board')).status, 404);
    assert.deepEqual(await settings(), before);
  });
});

describe('management: board SSO secret with SECRET_KEY', () => {
  let server: TestServer;
  let p: ManagedProject;
  const secretKey = 'k'.repeat(40);

  before(async () => {
    server = await startTestServer({ env: { SECRET_KEY: secretKey } });
    p = await managedProject(server);
  });
  after(() => server.close());

  it('derives the secret from SECRET_KEY', async () => {
    const made = await p.admin.post(`/projects/${p.projectId}/board/sso-secret`);
    assert.equal(made.status, 200, made.text);
    assert.equal(await boardSsoSecret(server.db, { secretKey }, p.projectId), made.body.secret);
    assert.notEqual(await boardSsoSecret(server.db, { secretKey: undefined }, p.projectId), made.body.secret);
  });
});
