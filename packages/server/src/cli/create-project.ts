// `npm run create-project -- <name> [--slug s] [--locales en,de] [--quota n]`: creates a project
// with a live and a test key holding every key permission (public API and hosted MCP), and
// prints the keys once.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { ALL_KEY_SCOPES, createApiKey, createProject, slugTaken } from '../resources/projects/index.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    slug: { type: 'string' },
    locales: { type: 'string', default: 'en' },
    quota: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const name = positionals.join(' ').trim();
if (!name) {
  process.stderr.write(
    'Usage: npm run create-project -- <name> [--slug my-app] [--locales en,de] [--quota 100000] [--json]\n',
  );
  process.exit(2);
}
const slug =
  values.slug ??
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) {
  process.stderr.write(`Invalid slug "${slug}": use lowercase letters, digits and hyphens.\n`);
  process.exit(2);
}
const locales = values.locales
  .split(',')
  .map((l) => l.trim())
  .filter(Boolean);
const quota = values.quota === undefined ? null : Number(values.quota);
if (quota !== null && !(Number.isInteger(quota) && quota >= 0)) {
  process.stderr.write('--quota must be a whole number of requests per month.\n');
  process.exit(2);
}

const config = loadConfig();
const db = openDatabase(config);
try {
  await migrate(db);
  const result = await db.transaction(async (tx) => {
    if (await slugTaken(tx, slug)) return undefined;
    const project = await createProject(tx, {
      name,
      slug,
      defaultLocale: locales[0] ?? 'en',
      supportedLocales: locales,
      monthlyQuota: quota,
    });
    const live = await createApiKey(tx, project.id, 'live', ALL_KEY_SCOPES, { name: 'live' });
    const test = await createApiKey(tx, project.id, 'test', ALL_KEY_SCOPES, { name: 'test' });
    return { projectId: project.id, slug, liveKey: live.key, testKey: test.key, scopes: [...ALL_KEY_SCOPES] };
  });
  if (!result) {
    process.stderr.write(`A project with slug "${slug}" already exists.\n`);
    process.exitCode = 1;
  } else if (values.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    process.stdout.write(
      [
        `Created project "${name}" (${result.projectId}).`,
        `  Live key: ${result.liveKey}`,
        `  Test key: ${result.testKey}`,
        `  Scopes:   ${result.scopes.join(', ')}`,
        'Keys are shown only now; Signpost stores only their hashes.',
        '',
      ].join('\n'),
    );
  }
} finally {
  await db.close();
}
