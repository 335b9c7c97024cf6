/**
 * The webhooks screen in Chromium against a real server and a local receiver: add an endpoint with
 * chosen events (the secret shown once, then only its hint), send a test message (it arrives,
 * signed with that secret; the delivery log shows it delivered), redeliver it, and a feature
 * created through the public API arrives too. axe on every state.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { type SeededProject, seedProject } from './seed-project.ts';
import { type DashboardEnv, expectAccessible, startDashboardEnv, watchedPage } from './support.ts';

interface Received {
  headers: Record<string, string>;
  body: string;
}

describe('dashboard webhooks', () => {
  let env: DashboardEnv;
  let p: SeededProject;
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];
  const waitFor = async (count: number) => {
    const end = Date.now() + 15_000;
    while (received.length < count) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${count} webhooks`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return received;
  };

  before(async () => {
    env = await startDashboardEnv({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOKS_POLL_MS: '20' });
    p = await seedProject(env, 'Webhooks project');
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    receiver?.closeAllConnections();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await env?.close();
  });

  it('adds an endpoint, shows its secret once, sends a test, shows and redelivers deliveries', async () => {
    const { page, problems } = await watchedPage(env.browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    await p.signIn(page.context());
    await page.goto(`${env.origin}/app/projects/${p.projectId}/settings`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    await expectAccessible(page, 'webhooks, none yet');

    // No event chosen: refused in place.
    const form = page.locator('form', { has: page.getByRole('heading', { name: 'Add a webhook' }) });
    await form.getByLabel('Endpoint URL').fill(receiverUrl);
    await form.getByRole('checkbox', { name: 'feature.created' }).uncheck();
    await form.getByRole('checkbox', { name: 'comment.created' }).uncheck();
    await form.getByRole('button', { name: 'Add webhook' }).click();
    await form.getByText('Choose at least one event').waitFor();
    await form.getByRole('checkbox', { name: 'feature.created' }).check();
    await form.getByRole('button', { name: 'Add webhook' }).click();

    const secretField = page.getByLabel('The signing secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    assert.match(secret, /^whsec_/);
    await expectAccessible(page, 'webhooks, secret shown once');
    await page.getByRole('button', { name: 'Done' }).click();
    await secretField.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: new RegExp(receiverUrl) });
    await row.getByText('Enabled').waitFor();
    await row.getByText(`secret …${secret.slice(-4)}`).waitFor();
    assert.ok(!(await page.content()).includes(secret), 'the secret is not on the page any more');

    // Send a test: it arrives signed; the log shows it delivered.
    await row.getByRole('button', { name: 'Send test' }).click();
    const [first] = await waitFor(1);
    assert.equal((new Webhook(secret).verify(first!.body, first!.headers) as { type: string }).type, 'webhook.test');
    const log = page.locator('section', { has: page.getByRole('heading', { name: 'Deliveries' }) });
    await log.getByRole('row', { name: /webhook\.test\s+delivered\s+1\s+204/ }).waitFor();
    await expectAccessible(page, 'webhooks, delivery log');

    // Redeliver: the same message again.
    await log
      .getByRole('button', { name: /^Redeliver webhook\.test/ })
      .first()
      .click();
    const [, second] = await waitFor(2);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    await log
      .getByRole('row', { name: /webhook\.test\s+delivered/ })
      .nth(1)
      .waitFor();

    // A real event.
    await p.addIdea({ title: 'Webhooks from the dashboard' });
    const [, , third] = await waitFor(3);
    const event = new Webhook(secret).verify(third!.body, third!.headers) as { type: string; data: any };
    assert.equal(event.type, 'feature.created');
    assert.equal(event.data.feature.title, 'Webhooks from the dashboard');
    await log.getByRole('row', { name: /feature\.created\s+delivered/ }).waitFor();
    assert.deepEqual(problems, []);
  });
});
