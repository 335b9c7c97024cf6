/**
 * Typo-tolerant search on the board, in the inbox (management API) and in similar-idea
 * suggestions: `drak mode` finds "Dark mode", `exprot` finds "Export …", an exact match ranks
 * first; suggestions ignore stop-words (`for the app` suggests nothing) and apply a relevance
 * floor; another project's ideas never show, nor count in the inbox's total; a repeated inbox
 * search sees every change to the ideas.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { managedProject, type ManagedProject } from '../support/manage-fixtures.ts';

describe('typo-tolerant search', () => {
  let server: TestServer;
  let p: ManagedProject;
  before(async () => {
    server = await startTestServer();
    p = await managedProject(server);
    assert.equal((await p.admin.patch(`/projects/${p.projectId}/board`, { enabled: true })).status, 200);
    for (const [title, description] of [
      ['Dark mode', 'A dark theme for the whole app, easier on the eyes at night.'],
      ['Export to CSV', 'Download every report as a spreadsheet for the finance team.'],
      ['Darker charts in reports', 'The chart colours are too light to read.'],
      ['Offline mode for the app', 'Keep working on the train without a connection.'],
      ['Faster startup', 'The app takes ten seconds to open on older phones.'],
      ['Calendar sync', 'Sync deadlines with Google Calendar and Outlook.'],
    ]) {
      const created = await p.live.post('/features', { title, description });
      assert.equal(created.status, 201, created.text);
    }
    const other = await managedProject(server);
    await other.live.post('/features', { title: 'Drak secret thing', description: 'Another project’s idea.' });
  });
  after(async () => server?.close());

  const boardTitles = async (q: string) => {
    const page = await fetch(`${server.origin}/b/${p.projectId}/?q=${encodeURIComponent(q)}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    return [...html.matchAll(/<a href="[^"]*\/ideas\/feat_[^"]*"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1]!.trim());
  };
  const inboxTitles = async (q: string) => {
    const list = await p.member.get(`/projects/${p.projectId}/features?q=${encodeURIComponent(q)}`);
    assert.equal(list.status, 200, list.text);
    return (list.body.features as any[]).map((f) => f.title as string);
  };
  const suggestions = async (q: string) => {
    const answer = await fetch(`${server.origin}/b/${p.projectId}/suggest?q=${encodeURIComponent(q)}`);
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { title: string }[]).map((row) => row.title);
  };

  it('finds ideas through typos on the board and in the inbox, an exact match first', async () => {
    const drak = await boardTitles('drak mode');
    assert.equal(drak[0], 'Dark mode');
    assert.ok(!drak.includes('Drak secret thing'), 'no other project’s idea');
    assert.equal((await boardTitles('exprot'))[0], 'Export to CSV');
    assert.equal((await boardTitles('dark mode'))[0], 'Dark mode');
    assert.equal((await boardTitles('calender'))[0], 'Calendar sync');

    assert.ok((await inboxTitles('drak mode')).includes('Dark mode'));
    assert.deepEqual(await inboxTitles('exprot'), ['Export to CSV']);
    assert.deepEqual(await inboxTitles('Export to'), ['Export to CSV'], 'the exact phrase as before');
    assert.deepEqual(await inboxTitles('zzqx'), []);
  });

  it('counts the inbox search’s total in its own project, and a repeated search sees every change', async () => {
    const inbox = async (q: string) => {
      const list = await p.member.get(`/projects/${p.projectId}/features?q=${encodeURIComponent(q)}`);
      assert.equal(list.status, 200, list.text);
      return { total: list.body.total as number, titles: (list.body.features as any[]).map((f) => f.title as string) };
    };
    // "Drak secret thing" of the other project is in the same full-text index: not counted.
    assert.deepEqual(await inbox('drak'), { total: 1, titles: ['Dark mode'] });
    assert.deepEqual(await inbox('mode'), { total: 2, titles: ['Offline mode for the app', 'Dark mode'] });
    // The same search again after a new idea, an edit and a delete: each shows at once.
    const created = await p.live.post('/features', { title: 'Kiosk mode', description: 'Lock the app to one screen.' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(await inbox('mode'), {
      total: 3,
      titles: ['Kiosk mode', 'Offline mode for the app', 'Dark mode'],
    });
    const edited = await p.admin.patch(`/projects/${p.projectId}/features/${created.body.id}`, {
      title: 'Kiosk screen',
    });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(await inbox('mode'), { total: 2, titles: ['Offline mode for the app', 'Dark mode'] });
    assert.deepEqual((await inbox('kiosk')).titles, ['Kiosk screen']);
    assert.equal((await p.admin.delete(`/projects/${p.projectId}/features/${created.body.id}`)).status, 204);
    assert.deepEqual(await inbox('kiosk'), { total: 0, titles: [] });
  });

  it('suggests similar ideas without stop-words and above a relevance floor', async () => {
    assert.deepEqual(await suggestions('for the app'), []);
    assert.deepEqual(await suggestions('please add a way to'), []);
    assert.equal((await suggestions('drak mode'))[0], 'Dark mode');
    assert.equal((await suggestions('export my data'))[0], 'Export to CSV');
    // One word of three matching, and only in a description: below the floor.
    assert.deepEqual(await suggestions('train ticket booking'), []);
  });
});
