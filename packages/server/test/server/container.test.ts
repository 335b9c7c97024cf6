/**
 * The container image without a container engine (none runs on the test machines: see
 * docs/self-hosting.md, "Container"). What can be checked here is checked:
 * - the server is built (scripts/build.mjs) in a copy of the package, and the image's /app is
 *   laid out from the Dockerfile's `COPY --from=build` lines (node_modules linked, the dashboard
 *   left out: its vite build is slow and the server runs without it); a copy, so the build never
 *   races another test file's build of packages/server/dist;
 * - the runtime stage's start command (CMD), with the environment the Dockerfile sets (ENV) and
 *   its data volume, run in that layout: it migrates, answers /readyz and a public read, and the
 *   HEALTHCHECK command reports it healthy;
 * - compose.yaml's replicas, load balancer and its configuration refer to each other.
 * scripts/container-test.sh runs the real image and compose where an engine runs.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_DEMO_API_KEY } from '../../src/config.ts';
import { DEFAULT_DASHBOARD_DIST } from '../../src/dashboard/plugin.ts';
import { createTestDatabase, startServerProcess, type ServerProcess, type TestDatabase } from '../support/server.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const REPO = resolve(PACKAGE_DIR, '../..');

interface Stage {
  env: Record<string, string>;
  workdir: string;
  cmd: string[];
  healthcheck: string[];
  copiesFromBuild: string[];
  volumes: string[];
  user: string | undefined;
  expose: string[];
}

/** The last stage of the Dockerfile: the instructions this test needs, continuation lines joined. */
function runtimeStage(): Stage {
  const text = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const last = lines.findLastIndex((line) => /^FROM\s/i.test(line));
  const stage: Stage = {
    env: {},
    workdir: '/',
    cmd: [],
    healthcheck: [],
    copiesFromBuild: [],
    volumes: [],
    user: undefined,
    expose: [],
  };
  for (const line of lines.slice(last)) {
    const [, instruction = '', rest = ''] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    switch (instruction.toUpperCase()) {
      case 'ENV':
        for (const [, key, value] of rest.matchAll(/(\w+)=("[^"]*"|\S+)/g))
          stage.env[key!] = value!.replace(/^"|"$/g, '');
        break;
      case 'WORKDIR':
        stage.workdir = rest;
        break;
      case 'CMD':
        stage.cmd = JSON.parse(rest) as string[];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(rest)![1]!) as string[];
        break;
      case 'COPY': {
        const parts = rest.split(/\s+/);
        if (parts[0] === '--from=build') stage.copiesFromBuild.push(...parts.slice(1, -1));
        break;
      }
      case 'VOLUME':
        stage.volumes.push(...(JSON.parse(rest) as string[]));
        break;
      case 'USER':
        stage.user = rest;
        break;
      case 'EXPOSE':
        stage.expose.push(...rest.split(/\s+/));
        break;
    }
  }
  return stage;
}

/** A path inside the image (under WORKDIR /app) relative to /app. */
function relativeToApp(stage: Stage, imagePath: string): string {
  return imagePath.startsWith('/') ? imagePath.slice(stage.workdir.length + 1) : imagePath.replace(/^\.\//, '');
}

/** Runs the server's build in a copy of the package: `<root>/packages/server`. */
function buildCopy(root: string): void {
  const copy = join(root, 'packages/server');
  for (const entry of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(PACKAGE_DIR, entry), join(copy, entry), { recursive: true });
  }
  cpSync(join(REPO, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: copy, encoding: 'utf8' });
  assert.equal(build.status, 0, `${build.stdout}\n${build.stderr}`);
}

describe('the container image, run without an engine', () => {
  const stage = runtimeStage();
  const scratch = mkdtempSync(join(tmpdir(), 'signpost-image-'));
  const buildRoot = join(scratch, 'build');
  const app = join(scratch, 'app');
  const volume = join(scratch, 'data');
  let database: TestDatabase;
  let server: ServerProcess;

  before(
    async () => {
      buildCopy(buildRoot);
      for (const source of stage.copiesFromBuild) {
        const path = relativeToApp(stage, source);
        if (path === 'packages/dashboard/dist') continue;
        const from =
          path.startsWith('package') && !path.startsWith('packages/') ? join(REPO, path) : join(buildRoot, path);
        mkdirSync(dirname(join(app, path)), { recursive: true });
        if (path === 'node_modules') symlinkSync(join(REPO, 'node_modules'), join(app, path));
        else cpSync(from, join(app, path), { recursive: true });
      }
      mkdirSync(volume);
      database = await createTestDatabase();
      assert.equal(stage.env['DATA_DIR'], stage.volumes[0], 'DATA_DIR is the volume');
      server = await startServerProcess(
        database,
        {
          ...stage.env,
          // The volume's mount point, and a free port instead of the image's fixed one.
          DATA_DIR: volume,
          PORT: '0',
          // The image uses SQLite in DATA_DIR unless DATABASE_URL is set (compose sets PostgreSQL).
          DATABASE_URL: database.kind === 'postgres' ? database.url : '',
        },
        [join(app, stage.cmd[0]!), ...stage.cmd.slice(1)],
      );
      // A whole build of the server: on two busy cores (the root's lanes run side by side) it can
      // take longer than one test's two minutes.
    },
    { timeout: 300_000 },
  );
  after(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs as an unprivileged user with the data volume, and listens on every interface', () => {
    assert.ok(stage.user && stage.user !== 'root' && stage.user !== '0', `USER ${stage.user}`);
    assert.equal(stage.env['HOST'], '0.0.0.0');
    assert.deepEqual(stage.expose, [stage.env['PORT']]);
    assert.match(server.output(), /"database":"(sqlite|postgres)"/);
  });

  it('starts with the image command and environment: /readyz, a public read, the health check', async () => {
    assert.equal((await fetch(`${server.origin}/readyz`)).status, 200);
    const roadmap = await fetch(`${server.baseUrl}/roadmap`, { headers: { 'x-api-key': DEFAULT_DEMO_API_KEY } });
    assert.equal(roadmap.status, 200);
    if (database.kind === 'sqlite') {
      assert.ok(existsSync(join(volume, 'signpost.db')), 'the SQLite file is in the volume');
    }
    // The HEALTHCHECK command, with the port this process listens on.
    const port = new URL(server.origin).port;
    const healthy = await runHealthcheck({ PORT: port });
    assert.equal(healthy, 0);
  });

  it('the health check fails when nothing answers', async () => {
    assert.equal(await runHealthcheck({ PORT: '1' }), 1);
  });

  it('every path the Dockerfile copies exists after the builds', () => {
    assert.ok(stage.copiesFromBuild.length > 0);
    for (const source of stage.copiesFromBuild) {
      const path = relativeToApp(stage, source);
      if (path === 'packages/dashboard/dist') {
        // Built by the dashboard's own build (vite, slow): checked by where the server looks.
        assert.equal(resolve(DEFAULT_DASHBOARD_DIST), join(REPO, path));
        const dashboard = JSON.parse(readFileSync(join(REPO, 'packages/dashboard/package.json'), 'utf8'));
        assert.match(dashboard.scripts.build, /vite build/);
        continue;
      }
      assert.ok(existsSync(join(app, path)), `${source} is in the image`);
    }
    assert.ok(existsSync(join(app, stage.cmd[0]!)));
    assert.ok(existsSync(join(app, 'packages/server/dist/main.js')));
    assert.ok(existsSync(join(app, 'packages/server/dist/migrations')));
  });

  it('compose.yaml: PostgreSQL, two replicas of the image behind the load balancer and its config', () => {
    const compose = parseYaml(readFileSync(join(REPO, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, any>;
    };
    const replicas = Object.entries(compose.services).filter(([, service]) => service.build === '.');
    assert.equal(replicas.length, 2);
    for (const [, service] of replicas) {
      assert.match(service.environment.DATABASE_URL, /^postgres:\/\/[^@]+@postgres:5432\//);
      assert.equal(service.environment.TRUST_PROXY, 'true');
      assert.equal(service.depends_on.postgres.condition, 'service_healthy');
      assert.equal(service.ports, undefined, 'only the load balancer is published');
    }
    assert.ok(compose.services['postgres'].healthcheck);
    const caddy = compose.services['caddy'];
    const mount = (caddy.volumes as string[]).find((volume) => volume.includes('Caddyfile'))!;
    const caddyfile = readFileSync(join(REPO, mount.split(':')[0]!), 'utf8');
    for (const [name] of replicas) assert.match(caddyfile, new RegExp(`\\b${name}:${stage.env['PORT']}\\b`));
    assert.match(caddyfile, /health_uri \/readyz/);
    const nginx = readFileSync(join(REPO, 'deploy/nginx.conf'), 'utf8');
    for (const [name] of replicas) assert.match(nginx, new RegExp(`server ${name}:${stage.env['PORT']}\\b`));
  });

  function runHealthcheck(env: Record<string, string>): Promise<number | null> {
    const [command, ...args] = stage.healthcheck;
    assert.equal(command, 'node');
    const child = spawn(process.execPath, args, { env: { ...process.env, ...stage.env, ...env }, stdio: 'ignore' });
    return new Promise((done) => child.once('exit', (code) => done(code)));
  }
});
