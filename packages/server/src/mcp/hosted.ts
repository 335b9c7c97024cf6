import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { AccountGateway } from '../oauth/accounts.ts';
import { managementAccounts } from '../oauth/management-accounts.ts';
import { oauthServer } from '../oauth/plugin.ts';
import { oauthTokenVerifier } from '../oauth/verifier.ts';
import { mcpRoutes } from './plugin.ts';

export interface HostedMcpDeps {
  db: Database;
  config: Config;
  /** Accounts behind the consent page: the management API's unless a test gives others. */
  accounts?: AccountGateway;
}

/** The hosted MCP surface: /mcp, its protected resource metadata, and the OAuth server that signs clients in. */
export async function hostedMcp(
  app: FastifyInstance,
  { db, config, accounts = managementAccounts(db, config) }: HostedMcpDeps,
): Promise<void> {
  await app.register(async (scoped) => oauthServer(scoped, { db, config, accounts }));
  await app.register(async (scoped) =>
    mcpRoutes(scoped, { db, config, tokens: oauthTokenVerifier(db, config, accounts) }),
  );
}
