/**
 * Takes the README's screenshots of the dashboard (docs/screenshots/dashboard-*.png): a real server
 * with the built dashboard, an account, a team, a project with ideas, a bug and a changelog entry,
 * all made through the APIs, then each screen in Chromium. Run after `npm run build`:
 *
 *   node scripts/screenshots.ts
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startBrowserEnv } from '@signpost/server/testing/browser-env';
import type { Page } from 'playwright-core';

const out = join(import.meta.dirname, '../../../docs/screenshots');
mkdirSync(out, { recursive: true });
const env = await startBrowserEnv();
try {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const manage = async (method: string, path: string, data?: unknown) => {
    const response = await page.request.fetch(`${env.origin}/api/v1${path}`, {
      method,
      headers: { 'X-Requested-With': 'screenshots', origin: env.origin },
      ...(data === undefined ? {} : { data }),
    });
    if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
    return response.json();
  };

  const email = 'sam@example.com';
  const password = 'quiet harbour lantern 42';
  await manage('POST', '/auth/sign-up', { email, password, name: 'Sam Rivera' });
  await manage('POST', '/auth/sign-in', { email, password });
  const mail = await env.mailbox.nextTo(email, 0);
  await page.goto(mail.links.find((href) => href.includes('/app/verify-email?token='))!);
  const team = await manage('POST', '/teams', { name: 'Harbour Labs' });
  const project = await manage('POST', '/projects', { teamId: team.id, name: 'Harbour App', slug: 'harbour' });
  await manage('PATCH', `/projects/${project.id}/board`, { enabled: true, title: 'Harbour ideas' });
  await manage('POST', `/teams/${team.id}/invites`, { email: 'alex@example.com', role: 'member' });
  const key = await manage('POST', `/projects/${project.id}/keys`, {
    name: 'Web app',
    environment: 'live',
    scopes: ['features:read', 'features:write', 'bugs:write', 'errors:write', 'logs:write'],
    publishable: true,
  });
  const publicApi = async (path: string, data?: unknown, method = 'POST') => {
    const response = await fetch(`${env.origin}/api/public/v1${path}`, {
      method,
      headers: { 'X-API-Key': key.key, ...(data === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(data === undefined ? {} : { body: JSON.stringify(data) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const ideas = [
    ['Dark mode for the mobile app', 'Evenings are hard on the eyes.', 14],
    ['Export reports as CSV', 'Our finance team needs the numbers in a spreadsheet.', 9],
    ['Offline mode', 'Keep working on the train.', 6],
    ['Two-factor sign-in', 'TOTP or passkeys, please.', 4],
    ['Keyboard shortcuts', 'j/k to move through lists.', 2],
  ] as const;
  const created = [];
  for (const [title, description, votes] of ideas) {
    const feature = await publicApi('/features', { title, description, type: 'feature' });
    created.push(feature);
    for (let voter = 0; voter < votes; voter += 1)
      await publicApi(`/features/${feature.id}/votes/voter-${voter}`, undefined, 'PUT');
  }
  await publicApi('/bugs', {
    title: 'Crash when saving a draft offline',
    message: 'The app closes when a draft is saved without a connection.',
    severity: 'high',
    createFeature: true,
  });
  await manage('PATCH', `/projects/${project.id}/features/${created[0].id}`, { status: 'in-progress' });
  await manage('PATCH', `/projects/${project.id}/features/${created[1].id}`, { status: 'planned' });
  await manage('PATCH', `/projects/${project.id}/features/${created[2].id}`, { status: 'planned' });
  await manage('POST', `/projects/${project.id}/changelog`, {
    summary: 'Dark mode is here',
    description: '<p>The app now follows your system theme. <strong>Thanks</strong> to everyone who voted.</p>',
    featureId: created[0].id,
    published: false,
  });

  for (let occurrence = 0; occurrence < 7; occurrence += 1)
    await publicApi('/errors', {
      title: 'TypeError: Cannot read properties of undefined (reading "total")',
      message: 'Cannot read properties of undefined (reading "total")',
      errorType: 'TypeError',
      severity: 'high',
      stackTrace:
        'TypeError: Cannot read properties of undefined\n    at cartTotal (cart.js:42:17)\n    at render (app.js:88:5)',
      breadcrumbs: [
        { type: 'navigation', message: '/cart', timestamp: new Date().toISOString() },
        { type: 'click', message: 'Checkout button', timestamp: new Date().toISOString() },
      ],
      app: { version: '2.4.1' },
    });
  const levels = ['info', 'info', 'warn', 'error', 'debug', 'info'] as const;
  const messages = [
    'User signed in',
    'Cart saved',
    'Slow payment provider',
    'Payment declined',
    'Cache miss',
    'Order placed',
  ];
  await publicApi('/logs', {
    logs: levels.map((level, index) => ({
      level,
      message: messages[index],
      category: index % 2 === 0 ? 'auth' : 'checkout',
      source: 'web',
      data: { orderId: 4100 + index, path: `/api/orders/${4100 + index}` },
    })),
  });

  const shoot = async (path: string, name: string, setup?: (page: Page) => Promise<void>) => {
    await page.goto(`${env.origin}/app${path}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    if (setup) await setup(page);
    await page.screenshot({ path: join(out, `dashboard-${name}.png`), fullPage: false });
    console.log(`dashboard-${name}.png`);
  };
  const base = `/projects/${project.id}`;
  await shoot('/', 'home');
  await shoot(`${base}/inbox`, 'inbox');
  await shoot(`${base}/inbox/${created[0].id}`, 'idea');
  await shoot(`${base}/roadmap`, 'roadmap');
  const entries = await manage('GET', `/projects/${project.id}/changelog`);
  await shoot(`${base}/changelog/${entries.entries[0].id}`, 'changelog-editor');
  const errors = await manage('GET', `/projects/${project.id}/errors`);
  // The group's page (every event, the stack, tags), as Sentry's issue page; the record links to it.
  const record = await manage('GET', `/projects/${project.id}/errors/${errors.errors[0].id}`);
  await shoot(`${base}/errors/groups/${record.groupId}`, 'error-group');
  // The explorer's lines, each with its own time and fields, under the chart.
  await shoot(`${base}/logs?show=lines`, 'logs', (shown) =>
    shown.getByRole('table', { name: 'Log lines' }).scrollIntoViewIfNeeded(),
  );
  await shoot(`${base}/site-config`, 'site-config');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(`/teams/${team.id}`, 'team-dark');
  await shoot(`${base}/keys`, 'keys-dark');
} finally {
  await env.close();
}
