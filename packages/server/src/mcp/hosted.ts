import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { AccountGateway } from '../oauth/accounts.ts';
import { oauthServer } from '../oauth/plugin.ts';
import { oauthTokenVerifier } from '../oauth/verifier.ts';
import { mcpRoutes } from './plugin.ts';

export interface HostedMcpDeps {
  db: Database;
  config: Config;
  /** Accounts for the consent page; without them only API keys reach /mcp. */
  accounts?: AccountGateway;
}

/** The hosted MCP surface: /mcp, its protected resource metadata and, with accounts, the OAuth server. */
export async function hostedMcp(app: FastifyInstance, { db, config, accounts }: HostedMcpDeps): Promise<void> {
  if (accounts) {
    await app.register(async (scoped) => oauthServer(scoped, { db, config, accounts }));
  }
  await app.register(async (scoped) =>
    mcpRoutes(scoped, { db, config, ...(accounts ? { tokens: oauthTokenVerifier(db, config, accounts) } : {}) }),
  );
}
