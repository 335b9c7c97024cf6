/**
 * Starts a real Signpost server on a fresh database for a test: in this process (fast) or as
 * a child process (for kill -9 and multi-process tests). Other packages' tests use it too,
 * through `@signpost/server/testing`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { DEFAULT_DEMO_API_KEY, loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { ALL_PUBLIC_SCOPES, createApiKey, createProject } from '../../src/resources/projects/index.ts';
import { seedOnFirstStart } from '../../src/seed/first-start.ts';
import { newId } from '../../src/kernel/ids.ts';
import { createTestDatabase, type TestDatabase, type TestDbKind } from './database.ts';

export interface TestProject {
  projectId: string;
  liveKey: string;
  testKey: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The public API base URL, `<origin>/api/public/v1`. */
  baseUrl: string;
  demoKey: string;
  demoProjectId: string;
  platformProjectId: string;
  db: Database;
  database: TestDatabase;
  /** The in-process app, for what HTTP cannot tell (how many answers came from the response memo). */
  app: FastifyInstance;
  /** A new project with a live and a test key holding the given scopes (default: all public ones). */
  createProject(options?: {
    scopes?: readonly string[];
    monthlyQuota?: number | null;
    id?: string;
  }): Promise<TestProject>;
  close(): Promise<void>;
}

export interface StartOptions {
  db?: TestDbKind;
  /** Extra environment settings, as the server would read them. */
  env?: Record<string, string>;
  /** Reuse an existing test database (for several servers on one database). */
  database?: TestDatabase;
  /** Wraps the opened database before the server gets it (e.g. to count statements). */
  wrapDatabase?: (db: Database) => Database;
}

export const PLATFORM_PROJECT_ID = 'signpost';

function testConfig(database: TestDatabase, env: Record<string, string> = {}) {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'silent',
    // Follower e-mails go out at once unless a test sets an undo window.
    NOTIFY_UNDO_SECONDS: '0',
    ...env,
  });
}

async function addProject(
  db: Database,
  options: Parameters<TestServer['createProject']>[0] = {},
): Promise<TestProject> {
  const scopes = options.scopes ?? ALL_PUBLIC_SCOPES;
  const projectId = options.id ?? newId('proj');
  await createProject(db, {
    id: projectId,
    name: `Test ${projectId}`,
    slug: projectId,
    defaultLocale: 'en',
    supportedLocales: ['en', 'de'],
    monthlyQuota: options.monthlyQuota ?? null,
  });
  const live = await createApiKey(db, projectId, 'live', scopes);
  const test = await createApiKey(db, projectId, 'test', scopes);
  return { projectId, liveKey: live.key, testKey: test.key };
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase(options.db, { migrated: true }));
  const config = testConfig(database, options.env);
  const opened = openDatabase(config);
  const db = options.wrapDatabase ? options.wrapDatabase(opened) : opened;
  await migrate(db);
  await seedOnFirstStart(db, config);
  const app: FastifyInstance = await buildApp({ config, db, logger: false });
  // Port 0 unless the test chose one (with a matching PUBLIC_URL, as OAuth tests need).
  const address = await app.listen({ port: config.port, host: '127.0.0.1' });
  return {
    origin: address,
    baseUrl: `${address}/api/public/v1`,
    demoKey: config.demoApiKey,
    demoProjectId: 'demo',
    platformProjectId: config.platformProjectId,
    db,
    database,
    app,
    createProject: (projectOptions) => addProject(db, projectOptions),
    close: async () => {
      await app.close();
      await db.close();
      if (!options.database) await database.drop();
    },
  };
}

export interface ServerProcess {
  origin: string;
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process printed. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Runs `src/main.ts` as its own process on the given database and waits until it listens. */
export async function startServerProcess(
  database: TestDatabase,
  env: Record<string, string> = {},
  /** What to run instead of `node src/main.ts`, e.g. the built server's executable bin. */
  command: readonly string[] = [process.execPath, MAIN],
): Promise<ServerProcess> {
  const child = spawn(command[0]!, command.slice(1), {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      LOG_LEVEL: 'info',
      NOTIFY_UNDO_SECONDS: '0',
      // One process unless the test asks for more (PostgreSQL's default is one per core).
      WORKERS: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    // A bound for a hung start, not a speed check: a cold start on a loaded 2-core machine
    // (the suite's other files, browsers) has taken over 20 s.
    const timer = setTimeout(() => {
      // Not left behind: a live child would keep the test file from ever ending.
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, 60_000);
    const check = () => {
      const match = /"address":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    origin,
    baseUrl: `${origin}/api/public/v1`,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        // Already gone: by its own exit (a code) or by a signal (a crash, or a kill).
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}

export { createTestDatabase, DEFAULT_DEMO_API_KEY, ALL_PUBLIC_SCOPES };
export type { TestDatabase, TestDbKind };
