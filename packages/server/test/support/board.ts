/**
 * What the board's browser tests share: a server on a known port (so e-mailed links and the
 * same-origin rule see the address the browser uses), the SMTP capture, one Chromium, a board to
 * work with, and axe-core run in the page.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type BoardChanges, updateBoard } from '../../src/resources/board/index.ts';
import { insertFeature } from '../../src/resources/features/index.ts';
export { assertAccessible } from './axe.ts';
import type { TestProject } from './server.ts';
import { startBrowserEnv, type BrowserEnv } from './browser-env.ts';

export type BoardTestEnv = BrowserEnv;
/** The board's tests run in the shared browser environment. */
export const startBoardEnv = startBrowserEnv;

/** A project with its board on (and any other settings), ready for ideas. */
export async function boardProject(
  env: BoardTestEnv,
  changes: BoardChanges = {},
): Promise<TestProject & { boardUrl: string }> {
  const project = await env.server.createProject();
  await updateBoard(env.server.db, project.projectId, { enabled: true, ...changes });
  return { ...project, boardUrl: `${env.origin}/b/${project.projectId}` };
}

export async function addIdea(
  env: BoardTestEnv,
  projectId: string,
  idea: {
    title: string;
    description?: string;
    internal?: boolean;
    held?: boolean;
    status?: string;
    type?: 'feature' | 'bug';
  },
): Promise<string> {
  const row = await insertFeature(
    env.server.db,
    { projectId, environment: 'live' },
    {
      title: idea.title,
      description: idea.description ?? `${idea.title}: described at length for the board.`,
      type: idea.type ?? 'feature',
      status: (idea.status ?? 'open') as never,
      internal: idea.internal ?? false,
      held: idea.held ?? false,
    },
  );
  return row.id;
}

/** A page that records CSP violations and failed requests, for assertions at the end. */
export async function watchedPage(context: BrowserContext | Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

/** Signs in on the board through the e-mailed link, in the page's browser context. */
export async function signInByEmail(
  env: BoardTestEnv,
  page: Page,
  boardUrl: string,
  email: string,
  name?: string,
): Promise<void> {
  const before = env.mailbox.messages.filter((mail) => mail.to.includes(email.toLowerCase())).length;
  await page.goto(`${boardUrl}/sign-in`);
  await page.getByLabel(/E-mail address|E-Mail-Adresse/).fill(email);
  if (name) await page.getByLabel(/Your name|Dein Name/).fill(name);
  await page.getByRole('button', { name: /E-mail me a link|Link per E-Mail senden/ }).click();
  await page.getByText(/Check your inbox|Schau in dein Postfach/).waitFor();
  const mail = await env.mailbox.nextTo(email.toLowerCase(), before);
  const link = mail.links.find((href) => href.includes('/sign-in/verify'));
  assert.ok(link, 'the e-mail carries the sign-in link');
  await page.goto(link);
  await page
    .getByRole('button', { name: /Sign in|Anmelden/ })
    .last()
    .click();
  await page.waitForURL((url) => !url.pathname.includes('/sign-in'));
}
