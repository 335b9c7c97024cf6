/**
 * The export as a multipart/form-data form (the dashboard's upload, encoded by Fetch's FormData
 * as a browser does) next to the raw body (the CLI's): the same report for the same file, the
 * form's filename naming the file in the report and in errors; a malformed file refused naming
 * row and column; a form that is not one file (none, two, a field, an empty file, a cut-off
 * body) a 400 saying what to send; a file past IMPORT_MAX_BYTES (set low here) a 413, as form
 * and as raw body. Whatever is refused stores nothing, in the database or in the temporary folder
 * (this file gives the process its own, to look into).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { managedProject } from '../../support/manage-fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import {
  encodeForm,
  importFixture,
  importHoldings,
  postForm,
  uploadForm,
  uploadRaw,
  zipFixtures,
} from '../../support/imports.ts';

// The server's uploads go to a folder only this file uses (os.tmpdir() reads TMPDIR on each call).
process.env['TMPDIR'] = mkdtempSync(join(tmpdir(), 'import-upload-test-'));

/** The server's IMPORT_MAX_BYTES here: the fixtures fit, a file one byte past it does not. */
const MAX_BYTES = 8192;

/** Temporary upload folders left behind (none once an answer is sent). */
const leftUploads = () => readdirSync(tmpdir()).filter((name) => name.startsWith('signpost-import-'));

describe('imports: multipart/form-data upload', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ env: { IMPORT_MAX_BYTES: String(MAX_BYTES) } });
  });
  after(async () => server?.close());

  it('imports a form’s file as the raw body does; its filename names the file in the report', async () => {
    const project = await managedProject(server);
    const dump = importFixture('canny/dump.json');
    const empty = await importHoldings(server, project.projectId);
    const dry = await uploadForm(project, dump, 'canny-dump.json', { source: 'canny', dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(dry.body.ideas, { created: 3, updated: 0, unchanged: 0, skipped: 0, truncated: 0 });
    assert.deepEqual(dry.body.skipped, [
      { file: 'canny-dump.json', row: 4, kind: 'vote', id: 'p9', reason: 'its idea p9 is not in the export' },
    ]);
    assert.deepEqual(await importHoldings(server, project.projectId), empty, 'a dry run stores nothing');
    // The same file as the raw body, named the same way, gives the same report.
    const raw = await uploadRaw(project, dump, { source: 'canny', dryRun: true, filename: 'canny-dump.json' });
    assert.deepEqual(raw.body, dry.body);

    const run = await uploadForm(project, dump, 'canny-dump.json', { source: 'canny' });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual({ ...run.body, dryRun: true }, dry.body, 'the run did what the dry run said');
    const afterRun = await importHoldings(server, project.projectId);
    assert.equal(afterRun.features, 3);
    // The CLI's next run of the same export (raw body) finds what the form's run made.
    const again = await uploadRaw(project, dump, { source: 'canny' });
    assert.deepEqual(again.body.ideas, { created: 0, updated: 0, unchanged: 3, skipped: 0, truncated: 0 });
    assert.deepEqual(await importHoldings(server, project.projectId), afterRun);
    // A zip in a form (a Fider backup): the zip is opened as the raw body's is.
    const fider = await uploadForm(project, zipFixtures('fider'), 'fider-backup.zip', { source: 'fider' });
    assert.equal(fider.status, 200, fider.text);
    assert.equal(fider.body.ideas.created, 2);
    assert.deepEqual(leftUploads(), []);
  });

  it('refuses a malformed file in a form naming its row and column, and stores nothing', async () => {
    const project = await managedProject(server);
    const before = await importHoldings(server, project.projectId);
    const res = await uploadForm(project, importFixture('uservoice/bad.csv'), 'bad.csv', { source: 'uservoice' });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'bad.csv row 3, column "ideaTitle": is missing or empty');
    assert.deepEqual(res.body.details, [{ field: 'bad.csv:3:ideaTitle', message: 'is missing or empty' }]);
    const badDate = await uploadForm(project, importFixture('canny/bad-dump.json'), 'export/bad-dump.json', {
      source: 'canny',
    });
    assert.equal(badDate.status, 400, badDate.text);
    assert.match(badDate.body.error, /^bad-dump\.json row 2, column "created"/, 'the name without its folders');
    assert.deepEqual(await importHoldings(server, project.projectId), before);
    assert.deepEqual(leftUploads(), []);
  });

  it('answers a form that is not one file with a 400 saying what to send, storing nothing', async () => {
    const project = await managedProject(server);
    const before = await importHoldings(server, project.projectId);
    const csv = new Uint8Array(importFixture('canny/posts.csv'));
    const query = { source: 'canny-csv' };

    const none = new FormData();
    const noFile = await postForm(project, none, query);
    assert.equal(noFile.status, 400, noFile.text);
    assert.equal(noFile.body.error, 'The form has no file: send the export as its one file part');

    const two = new FormData();
    two.append('file', new Blob([csv]), 'posts.csv');
    two.append('more', new Blob([csv]), 'again.csv');
    const twoFiles = await postForm(project, two, query);
    assert.equal(twoFiles.status, 400, twoFiles.text);
    assert.match(twoFiles.body.error, /^The form carries one part, the export file; the options .* query string$/);

    const withField = new FormData();
    withField.append('source', 'canny-csv');
    withField.append('file', new Blob([csv]), 'posts.csv');
    const field = await postForm(project, withField, query);
    assert.equal(field.status, 400, field.text);
    assert.match(field.body.error, /^The form carries one part/);

    const emptyFile = new FormData();
    emptyFile.append('file', new Blob([]), 'posts.csv');
    const empty = await postForm(project, emptyFile, query);
    assert.equal(empty.status, 400, empty.text);
    assert.equal(empty.body.error, 'The form’s file is empty: choose the export file');

    // A body cut off in the middle of the file, and one without a boundary.
    const whole = new FormData();
    whole.append('file', new Blob([csv]), 'posts.csv');
    const { body, contentType } = await encodeForm(whole);
    const cut = await project.admin.post(`/projects/${project.projectId}/imports`, undefined, {
      rawBody: body.slice(0, body.length - 60),
      headers: { 'content-type': contentType },
      query,
    });
    assert.equal(cut.status, 400, cut.text);
    const noBoundary = await project.admin.post(`/projects/${project.projectId}/imports`, undefined, {
      rawBody: body,
      headers: { 'content-type': 'multipart/form-data' },
      query,
    });
    assert.equal(noBoundary.status, 400, noBoundary.text);
    assert.match(noBoundary.body.error, /^The multipart\/form-data body cannot be read/);

    // No body at all (no content type either): no parser runs, and nothing is there to import.
    const noBody = await fetch(`${server.origin}/api/v1/projects/${project.projectId}/imports?source=canny-csv`, {
      method: 'POST',
      headers: project.admin.headers,
    });
    assert.equal(noBody.status, 400);
    assert.equal(
      ((await noBody.json()) as { error: string }).error,
      'The body is empty: send the export file as the request body',
    );

    assert.deepEqual(await importHoldings(server, project.projectId), before, 'nothing of any of them is stored');
    assert.deepEqual(leftUploads(), []);
  });

  it('refuses a file past IMPORT_MAX_BYTES with a 413, as a form and as the raw body, keeping nothing', async () => {
    const project = await managedProject(server);
    const before = await importHoldings(server, project.projectId);
    // A valid CSV (a header and rows) one byte past the limit: refused for its size, not its content.
    const header = 'Title,Details\n';
    const row = 'An idea,Its details\n';
    const rows = row.repeat(Math.ceil((MAX_BYTES - header.length) / row.length) + 1);
    const csv = new TextEncoder().encode(`${header}${rows}`.slice(0, MAX_BYTES + 1));
    assert.equal(csv.length, MAX_BYTES + 1);
    const form = await uploadForm(project, csv, 'posts.csv', { source: 'canny-csv' });
    assert.equal(form.status, 413, form.text);
    assert.equal(form.body.error, `An import may be at most ${MAX_BYTES} bytes`);
    const raw = await uploadRaw(project, csv, { source: 'canny-csv' });
    assert.equal(raw.status, 413, raw.text);
    assert.equal(raw.body.error, `An import may be at most ${MAX_BYTES} bytes`);
    // At the limit exactly, it is read (and its rows imported).
    const fits = await uploadForm(project, csv.slice(0, MAX_BYTES), 'posts.csv', { source: 'canny-csv' });
    assert.equal(fits.status, 200, fits.text);
    assert.equal(fits.body.ideas.created, 1, 'the same title is one idea');
    assert.equal((await importHoldings(server, project.projectId)).features, before.features + 1);
    assert.deepEqual(leftUploads(), []);
  });

  it('lets only admins import through a form; the file is not kept', async () => {
    const project = await managedProject(server);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(importFixture('canny/posts.csv'))]), 'posts.csv');
    const { body, contentType } = await encodeForm(form);
    const res = await project.member.post(`/projects/${project.projectId}/imports`, undefined, {
      rawBody: body,
      headers: { 'content-type': contentType },
      query: { source: 'canny-csv' },
    });
    assert.equal(res.status, 403, res.text);
    assert.equal((await importHoldings(server, project.projectId)).features, 0);
    assert.deepEqual(leftUploads(), []);
  });
});
