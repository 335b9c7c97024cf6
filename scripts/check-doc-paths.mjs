// Every path that the docs name exists. Reads the Markdown of the repository (README.md,
// CONTRIBUTING.md, docs/, each package's README) and the leading comment of every source file,
// takes each `code span` that looks like a path of this repository (it starts with packages/,
// src/, test/, docs/, scripts/, deploy/, build/ or .ci/, or is a file name with a known
// extension after a folder), and checks it against the tree: from the repository root, from the
// package the text belongs to, and from the text's own folder. Patterns (`*`, `<name>`, `…`) are
// skipped. Exits 1 naming each missing path with where it was written.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'fixtures', 'screenshots']);
const PATH_START = /^(?:\.\/)?(?:packages|src|test|docs|scripts|deploy|build|bin|\.ci)\//;
const FILE_LIKE = /^[\w@.-]+(?:\/[\w@.[\]-]+)+\.(?:ts|tsx|mjs|js|cjs|json|md|sql|css|sh|yaml|yml)$/;

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

function packageRootOf(file) {
  const parts = relative(root, file).split(sep);
  return parts[0] === 'packages' && parts.length > 2 ? join(root, parts[0], parts[1]) : root;
}

/** The text of a source file that is documentation: its leading comment block. */
function leadingComment(text) {
  const match = /^(?:#![^\n]*\n)?\s*(\/\*[\s\S]*?\*\/|(?:\/\/[^\n]*\n)+)/.exec(text);
  return match ? match[1] : '';
}

const documents = [];
for (const file of walk(root)) {
  const name = relative(root, file);
  if (name.endsWith('.md') && !name.includes(`${sep}CHANGELOG.md`) && !name.startsWith('.changeset')) {
    documents.push({ file, text: readFileSync(file, 'utf8') });
  } else if (/\.(ts|tsx|mjs)$/.test(name) && !name.endsWith('.gen.ts') && /(^|\/)(src|scripts|build)\//.test(name)) {
    documents.push({ file, text: leadingComment(readFileSync(file, 'utf8')) });
  }
}

// Documents name files of the packages without the package's folder (`src/app.ts`,
// `test/support/server.ts`): those are tried under every package.
const packageRoots = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name));
const everyPackage = packageRoots.flatMap((dir) => [dir, join(dir, 'src')]);

// The server's resources are named by their folder alone (`features/service.ts`).
const SERVER_RESOURCES = join(root, 'packages/server/src/resources');
// Paths in a user's project that the docs show as examples, not files of this repository.
const EXAMPLES = new Set(['de/checkout.json', 'app/global-error.tsx']);

const missing = [];
let checked = 0;
for (const { file, text } of documents) {
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
    const candidate = span
      .trim()
      .replace(/[:#].*$/, '')
      .replace(/\/$/, '');
    if (!PATH_START.test(candidate) && !FILE_LIKE.test(candidate)) continue;
    // Patterns, and what a build writes (dist/, generated/, *.gen.ts) that a fresh clone lacks.
    if (/[*<>…{}$ ]|\.\.\.|(^|\/)(dist|generated)(\/|$)|\.gen\.ts$/.test(candidate)) continue;
    checked++;
    const own = packageRootOf(file);
    const bases = [root, own, dirname(file), join(own, 'src'), ...everyPackage, SERVER_RESOURCES];
    if (EXAMPLES.has(candidate)) continue;
    if (bases.some((base) => existsSync(join(base, candidate)))) continue;
    missing.push(`${relative(root, file)}: \`${span}\``);
  }
}

if (missing.length > 0) {
  console.error(`Paths named in the docs that do not exist (${missing.length}):`);
  for (const line of missing) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`Doc paths: all ${checked} paths named in ${documents.length} documents exist`);
