import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { type SeedResult, seedOnFirstStart } from './seed/first-start.ts';
import { isClusterWorker, runPrimary, workerListening } from './server-cluster.ts';

/** What a person starting the server reads first: where it runs and how to try it. */
function announce(config: Config, seeded: SeedResult, dialect: 'sqlite' | 'postgres', port: string | number): void {
  const origin = config.publicUrl;
  const lines = [
    '',
    `  Signpost is running on ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} at http://localhost:${port}`,
    `  Public API:      ${origin}/api/public/v1  (reference: ${origin}/api/public/v1/docs)`,
    `  Management API:  ${origin}/api/v1  (reference: ${origin}/api/v1/docs)`,
    `  Hosted MCP:      ${origin}/mcp`,
  ];
  if (config.workers > 1) lines.push(`  Processes:       ${config.workers} (WORKERS)`);
  if (seeded.demo) {
    lines.push(`  Demo project:    ${seeded.demo.projectId}`);
    lines.push(`  Demo board:      ${origin}/b/${seeded.demo.projectId}`);
    lines.push(`  Demo API key:    ${seeded.demo.apiKey}`);
    lines.push(`  Try:             curl -H "X-API-Key: ${seeded.demo.apiKey}" ${origin}/api/public/v1/roadmap`);
  }
  lines.push(`  Platform project: ${config.platformProjectId}`, '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

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
  if (config.workers > 1 && !isClusterWorker) {
    await runPrimary(config, (seeded, dialect, port) => announce(config, seeded, dialect, port));
    return;
  }
  const db = openDatabase(config);
  // A cluster's primary has migrated and seeded before forking its workers.
  let seeded: Awaited<ReturnType<typeof seedOnFirstStart>> | undefined;
  if (!isClusterWorker) {
    await migrate(db);
    seeded = await seedOnFirstStart(db, config);
  }
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

  // A cluster's workers each bind the port themselves (SO_REUSEPORT): the kernel spreads the
  // connections, none passes through the primary, and a worker that dies takes only its own.
  const reusePort = isClusterWorker ? { exclusive: true, reusePort: true } : {};
  const address = await app.listen({ port: config.port, host: config.host, ...reusePort });
  app.log.info({ address, database: db.dialect }, 'Signpost is listening');
  if (seeded) announce(config, seeded, db.dialect, new URL(address).port);
  else workerListening();
}

main().catch((error: unknown) => {
  process.stderr.write(`Signpost failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
