import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { seedOnFirstStart } from './seed/first-start.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const db = openDatabase(config);
  await migrate(db);
  const seeded = await seedOnFirstStart(db, config);
  const app = await buildApp({ config, db });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('grace period over; exiting with requests still open');
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000);
    force.unref();
    // Connections busy when closing began turn idle once their response is out; Fastify closes
    // only the connections idle at the start, so sweep until close() resolves.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    await app.close();
    clearInterval(sweep);
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  app.log.info({ address, database: db.dialect }, 'Signpost is listening');
  const origin = config.publicUrl;
  const lines = [
    '',
    `  Signpost is running on ${db.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} at http://localhost:${port}`,
    `  Public API:      ${origin}/api/public/v1  (reference: ${origin}/api/public/v1/docs)`,
    `  Management API:  ${origin}/api/v1  (reference: ${origin}/api/v1/docs)`,
    `  Hosted MCP:      ${origin}/mcp`,
  ];
  if (seeded.demo) {
    lines.push(`  Demo project:    ${seeded.demo.projectId}`);
    lines.push(`  Demo board:      ${origin}/b/${seeded.demo.projectId}`);
    lines.push(`  Demo API key:    ${seeded.demo.apiKey}`);
    lines.push(`  Try:             curl -H "X-API-Key: ${seeded.demo.apiKey}" ${origin}/api/public/v1/roadmap`);
  }
  lines.push(`  Platform project: ${config.platformProjectId}`, '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Signpost failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
