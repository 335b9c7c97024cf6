/**
 * `signpost webhooks …` as users run it: the CLI as a process against a real Signpost server,
 * with a local receiver that checks every signature with the `standardwebhooks` library.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '@signpost/server/testing';
import { Webhook } from 'standardwebhooks';
import { accountToken, runCli } from './support.ts';

interface Received {
  headers: Record<string, string>;
  body: string;
}

describe('signpost webhooks', { timeout: 600_000 }, () => {
  let server: TestServer;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  let home: string;

  const signpost = (args: string[], stdin = '') => runCli(args, home, stdin);
  const ok = async (args: string[], stdin?: string) => {
    const run = await signpost(args, stdin);
    assert.equal(run.status, 0, `signpost ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
    return run;
  };
  const json = async (args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout);
  const waitFor = async (count: number) => {
    const end = Date.now() + 15_000;
    while (received.length < count) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${count} webhooks`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return received;
  };

  before(async () => {
    server = await startTestServer({
      env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_POLL_MS: '20' },
    });
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    home = mkdtempSync(join(tmpdir(), 'signpost-cli-webhooks-'));
    const token = await accountToken(server.origin, 'hooks@example.com', 'Hook', 'cli webhooks test');
    await ok(['login', '--token', '-', '--url', server.origin], `${token}\n`);
    await ok(['projects', 'create', 'Hooks App', '--use']);
  });
  after(async () => {
    await server.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    rmSync(home, { recursive: true, force: true });
  });

  it('prints --help for every webhooks command', async () => {
    for (const command of ['list', 'create', 'delete', 'rotate', 'deliveries', 'redeliver', 'test']) {
      const run = await ok(['webhooks', command, '--help']);
      assert.match(run.stdout, /Usage: signpost webhooks/);
    }
  });

  it('creates, tests, lists deliveries, redelivers, rotates and deletes', async () => {
    const bad = await signpost(['webhooks', 'create', receiverUrl, '--events', 'feature.deleted']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /Unknown event feature\.deleted/);
    const refused = await signpost(['webhooks', 'create', 'ftp://example.com/x', '--events', 'all']);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /url/);

    const created = await ok(['webhooks', 'create', receiverUrl, '--events', 'feature.created,comment.created']);
    const secret = /Signing secret .*: (whsec_\S+)/.exec(created.stdout)?.[1];
    assert.ok(secret, created.stdout);
    const id = /Created webhook (\S+) for/.exec(created.stdout)![1]!;
    const list = await ok(['webhooks', 'list']);
    assert.match(list.stdout, new RegExp(`${id}\\s+${receiverUrl.replaceAll('.', '\\.')}\\s+standard\\s+yes`));
    assert.ok(!list.stdout.includes(secret), 'the secret is shown only once');

    await ok(['webhooks', 'test', id]);
    const [first] = await waitFor(1);
    const body = new Webhook(secret).verify(first!.body, first!.headers) as { type: string };
    assert.equal(body.type, 'webhook.test');

    let deliveries: any;
    const end = Date.now() + 10_000;
    do {
      deliveries = await json(['webhooks', 'deliveries', id]);
    } while (deliveries.deliveries[0]?.state !== 'delivered' && Date.now() < end);
    assert.equal(deliveries.deliveries[0].statusCode, 204);
    const table = await ok(['webhooks', 'deliveries', id]);
    assert.match(table.stdout, /webhook\.test\s+delivered\s+1\s+204/);

    const redelivered = await ok(['webhooks', 'redeliver', id, deliveries.deliveries[0].id]);
    assert.match(redelivered.stdout, /Queued webhook\.test again/);
    const [, second] = await waitFor(2);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);

    const rotated = await json(['webhooks', 'rotate', id]);
    assert.notEqual(rotated.secret, secret);
    await ok(['webhooks', 'test', id]);
    const [, , third] = await waitFor(3);
    new Webhook(rotated.secret).verify(third!.body, third!.headers);

    await ok(['webhooks', 'delete', id]);
    assert.match((await ok(['webhooks', 'list'])).stdout, /No webhooks\./);
    const gone = await signpost(['webhooks', 'test', id]);
    assert.notEqual(gone.status, 0);
  });
});
