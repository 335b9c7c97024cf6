/**
 * `signpost audit` as users run it: the CLI as a process against a real Signpost server. Keys made
 * and revoked through the CLI show in the table as done via the CLI; --since, --action and the
 * streamed CSV and JSON lines exports.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { accountToken, runCli } from './support.ts';

describe('signpost audit', { timeout: 600_000 }, () => {
  let server: TestServer;
  let home: string;

  const signpost = (args: string[], stdin = '') => runCli(args, home, stdin);
  const ok = async (args: string[], stdin?: string) => {
    const run = await signpost(args, stdin);
    assert.equal(run.status, 0, `signpost ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  };

  before(async () => {
    server = await startTestServer();
    home = mkdtempSync(join(tmpdir(), 'signpost-cli-audit-'));
    const token = await accountToken(server.origin, 'auditor@example.com', 'Auditor', 'cli audit test');
    await ok(['login', '--token', '-', '--url', server.origin], `${token}\n`);
    await ok(['projects', 'create', 'Audit App', '--use']);
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows what was done through the CLI, filtered, and exports CSV and JSON lines', async () => {
    const created = JSON.parse(
      (await ok(['keys', 'create', '--env', 'live', '--scopes', 'public:read', '--name', 'audited', '--json'])).stdout,
    );
    const keyId = created.apiKey.id as string;
    await ok(['keys', 'revoke', keyId]);

    const table = await ok(['audit', '--since', '1h']);
    assert.match(table.stdout, new RegExp(`auditor@example\\.com\\s+cli\\s+api_key\\.revoked\\s+api_key ${keyId}`));
    assert.match(
      table.stdout,
      new RegExp(`auditor@example\\.com\\s+cli\\s+api_key\\.created\\s+api_key ${keyId}\\s+created`),
    );
    assert.ok(!table.stdout.includes(created.key), 'the plain key is in no entry');

    const only = JSON.parse((await ok(['audit', '--action', 'api_key.created', '--json'])).stdout);
    assert.deepEqual(
      only.entries.map((entry: { action: string }) => entry.action),
      ['api_key.created'],
    );
    assert.equal((await ok(['audit', '--until', '2000-01-01'])).stdout.trim(), 'No audit entries.');

    const jsonl = (await ok(['audit', '--format', 'jsonl'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      jsonl.map((entry) => entry.action),
      ['api_key.revoked', 'api_key.created'],
    );
    const csv = (await ok(['audit', '--format', 'csv', '--action', 'api_key.revoked'])).stdout;
    const [header, row, end] = csv.split('\r\n');
    assert.match(
      header!,
      /^id,at,project_id,actor_type,actor_id,actor_label,via,action,target_type,target_id,before,after$/,
    );
    assert.match(row!, new RegExp(`,account,[^,]+,auditor@example\\.com,cli,api_key\\.revoked,api_key,${keyId},"\\{`));
    assert.equal(end, '');

    const bad = await signpost(['audit', '--since', 'last tuesday']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /duration like 30m/);
  });
});
