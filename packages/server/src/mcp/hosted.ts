import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { mcpRoutes } from './plugin.ts';

/** The hosted MCP surface: /mcp and its protected resource metadata. */
export async function hostedMcp(app: FastifyInstance, deps: { db: Database; config: Config }): Promise<void> {
  await app.register(async (scoped) => mcpRoutes(scoped, deps));
}
