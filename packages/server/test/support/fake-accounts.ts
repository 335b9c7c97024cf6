/**
 * A stand-in for the accounts of the management API, for testing the authorization server on
 * its own: accounts with passwords, a session cookie, and per-account projects.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { AccessibleProject, AccountGateway, SignedInAccount, SignInResult } from '../../src/oauth/accounts.ts';
import { hostedMcp } from '../../src/mcp/hosted.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';
import { migrate } from '../../src/db/migrate.ts';
import { seedOnFirstStart } from '../../src/seed/first-start.ts';
import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { freePort } from './mcp.ts';

export class FakeAccounts implements AccountGateway {
  private readonly people = new Map<string, SignedInAccount & { password: string; projects: AccessibleProject[] }>();
  private readonly sessions = new Map<string, string>();

  add(email: string, password: string, projects: AccessibleProject[]): SignedInAccount {
    const account = { id: `acct_${randomUUID()}`, email, name: email.split('@')[0]!, password, projects };
    this.people.set(email, account);
    return account;
  }

  /** Replaces what the account may reach (a team change). */
  setProjects(email: string, projects: AccessibleProject[]): void {
    this.people.get(email)!.projects = projects;
  }

  async signedInAccount(request: FastifyRequest) {
    const token = /(?:^|;\s*)fake_session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    const email = token ? this.sessions.get(token) : undefined;
    const person = email ? this.people.get(email) : undefined;
    return person ? { id: person.id, email: person.email, name: person.name } : undefined;
  }

  async accessibleProjects(accountId: string) {
    return [...this.people.values()].find((person) => person.id === accountId)?.projects ?? [];
  }

  async signIn(email: string, password: string, reply: FastifyReply): Promise<SignInResult> {
    const person = this.people.get(email);
    if (!person || person.password !== password) return { ok: false, message: 'Wrong e-mail address or password' };
    const token = randomUUID();
    this.sessions.set(token, email);
    reply.header('set-cookie', `fake_session=${token}; Path=/; HttpOnly; SameSite=Lax`);
    return { ok: true, account: { id: person.id, email: person.email, name: person.name } };
  }
}

export interface OAuthTestServer {
  origin: string;
  db: Database;
  database: TestDatabase;
  close(): Promise<void>;
}

/** Only the hosted MCP surface with the OAuth server, on given accounts; PUBLIC_URL is the real origin. */
export async function startOAuthTestServer(accounts: AccountGateway): Promise<OAuthTestServer> {
  const database = await createTestDatabase();
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'silent',
  });
  const db = openDatabase(config);
  await migrate(db);
  await seedOnFirstStart(db, config);
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  await app.register(async (scoped) => hostedMcp(scoped, { db, config, accounts }));
  const origin = await app.listen({ port, host: '127.0.0.1' });
  return {
    origin,
    db,
    database,
    close: async () => {
      await app.close();
      await db.close();
      await database.drop();
    },
  };
}
