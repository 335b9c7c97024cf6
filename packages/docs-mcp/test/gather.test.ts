/** The build-time gatherer, run against fixture packages laid out like the SDK packages. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { gatherAll } from '../scripts/gather/package.ts';
import { parseReadme } from '../scripts/gather/readme.ts';
import { renderApiReference, renderCodeExamples, renderInstallationGuide, renderPackageDocs } from '../src/render.ts';
import { listTree, packageDir, tempDir } from './support.ts';

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const LOGGER_README = `# @signpost/logger

Structured logging for apps that report to Signpost.

\`\`\`ts
const log = new Logger({ apiKey: "svc_live_..." });
log.info("hello");
\`\`\`

## Installation

\`\`\`sh
npm install @signpost/logger
\`\`\`

## Quick start

Create a logger and log.

## API

### new Logger(config)

\`\`\`md
## This is inside a code block, not a section
\`\`\`

## Examples

See examples/.

## License

MIT
`;

const fixtures = tempDir('fixtures');
after(() => fixtures.remove());

writeTree(fixtures.path, {
  'logger/package.json': JSON.stringify({
    name: '@signpost/logger',
    version: '1.2.3',
    description: 'Structured logs for Signpost',
    exports: {
      '.': { types: './dist/index.d.ts', import: './dist/index.js' },
      './node': { types: './dist/node.d.ts', import: './dist/node.js' },
      './package.json': './package.json',
    },
    peerDependencies: { react: '>=18', pino: '>=9' },
    peerDependenciesMeta: { pino: { optional: true } },
  }),
  'logger/README.md': LOGGER_README,
  'logger/src/index.ts': `export interface LoggerConfig {\n  /** Public API key. */\n  apiKey: string;\n  level?: "debug" | "info";\n}\nexport class Logger {\n  private readonly config: LoggerConfig;\n  constructor(config: LoggerConfig) { this.config = config; }\n  info(message: string): void { void message; void this.config; }\n}\nfunction internalHelper() { return 1; }\nvoid internalHelper;\n`,
  'logger/src/node.ts': `export function fileSink(path: string) { return { path }; }\n`,
  'logger/src/index.test.ts': `export const notApi = 1;\n`,
  'logger/examples/browser.ts': `import { Logger } from "@signpost/logger";\nnew Logger({ apiKey: "k" }).info("browser");\n`,
  'logger/examples/node.mjs': `console.log("node example");\n`,
  'logger/examples/react.tsx': 'export function App() { return <p>```</p>; }\n',
  'logger/examples/nextjs/app/page.tsx': `export default function Page() { return null; }\n`,
  'logger/examples/examples.test.ts': `// runs the examples\n`,
  'logger/examples/node_modules/x/index.js': `ignored\n`,
  'i18n/package.json': JSON.stringify({ name: '@signpost/i18n', version: '0.1.0', types: './dist/index.d.ts' }),
  'i18n/src/index.ts': `export const stale = 1;\n`,
  'i18n/dist/index.d.ts': `export declare function t(key: string): string;\n//# sourceMappingURL=index.d.ts.map\n`,
  'i18n/dist/errors.d.ts': `export { ApiError, type SdkError as Failure } from "@signpost/sdk-core";\n`,
  'sdk-core/package.json': JSON.stringify({ name: '@signpost/sdk-core', types: './dist/index.d.ts' }),
  'sdk-core/dist/index.d.ts': `export { ApiError, SdkError } from "./errors.js";\nexport { Batcher } from "./batcher.js";\n`,
  'sdk-core/dist/errors.d.ts': `export declare class ApiError extends Error {\n}\nexport declare class SdkError extends Error {\n}\n`,
  'sdk-core/dist/batcher.d.ts': `export declare class Batcher {\n}\n`,
  'site-manager/package.json': JSON.stringify({ name: '@signpost/site-manager', version: '0.0.1' }),
});
// The built declarations of i18n are newer than its sources, so they are used.
utimesSync(join(fixtures.path, 'i18n/src/index.ts'), new Date(2020, 0, 1), new Date(2020, 0, 1));

const content = gatherAll(fixtures.path, '9.9.9');
const byName = Object.fromEntries(content.packages.map((p) => [p.name, p]));

describe('gatherer', () => {
  it('lists the five packages in order, with placeholders for the missing ones', () => {
    assert.deepEqual(
      content.packages.map((p) => p.name),
      ['error-tracker', 'feature-reporter', 'site-manager', 'i18n', 'logger'],
    );
    for (const name of ['error-tracker', 'feature-reporter']) {
      const p = byName[name]!;
      assert.equal(p.available, false);
      assert.match(p.notes.join(' '), /did not exist when this docs server was built/);
      assert.match(renderApiReference(p), /did not exist/);
    }
  });

  it('splits the README into title, intro and sections, ignoring headings in code blocks', () => {
    const logger = byName['logger']!;
    assert.equal(logger.readmeTitle, '@signpost/logger');
    assert.match(logger.readmeIntro, /^Structured logging/);
    assert.deepEqual(
      logger.sections.map((s) => s.title),
      ['Installation', 'Quick start', 'API', 'Examples', 'License'],
    );
    assert.match(logger.sections[2]!.body, /## This is inside a code block/);
    assert.deepEqual(parseReadme('no title\n\n## A\nx').title, null);
  });

  it('uses package.json for description, version and peer dependencies', () => {
    const logger = byName['logger']!;
    assert.equal(logger.description, 'Structured logs for Signpost');
    assert.equal(logger.version, '1.2.3');
    assert.deepEqual(logger.peerDependencies, { react: '>=18', pino: '>=9' });
    assert.deepEqual(logger.optionalPeers, ['pino']);
    assert.equal(logger.installCommand, 'npm install @signpost/logger');
  });

  it('emits declarations from src when there is no dist, without writing into the package', () => {
    const logger = byName['logger']!;
    assert.equal(logger.api.source, 'src');
    assert.deepEqual(
      logger.api.files.map((f) => f.path),
      ['index.d.ts', 'node.d.ts'],
    );
    const index = logger.api.files[0]!.text;
    assert.match(index, /export declare class Logger/);
    assert.match(index, /constructor\(config: LoggerConfig\)/);
    assert.match(index, /\/\*\* Public API key\. \*\//);
    assert.doesNotMatch(index, /internalHelper/);
    assert.deepEqual(logger.api.entryPoints, [
      { specifier: '@signpost/logger', path: 'index.d.ts' },
      { specifier: '@signpost/logger/node', path: 'node.d.ts' },
    ]);
    assert.ok(!listTree(join(fixtures.path, 'logger')).some((f) => f.startsWith('dist') || f.includes('declarations')));
  });

  it('prefers up-to-date dist declarations', () => {
    const i18n = byName['i18n']!;
    assert.equal(i18n.api.source, 'dist');
    assert.deepEqual(
      i18n.api.files.map((f) => f.path),
      ['index.d.ts', 'errors.d.ts', '@signpost/sdk-core/errors.d.ts'],
    );
    assert.equal(i18n.api.files[0]!.text, 'export declare function t(key: string): string;');
  });

  it("appends the declarations of internal packages' types it re-exports, and only those", () => {
    const i18n = byName['i18n']!;
    assert.match(i18n.api.files[2]!.text, /export declare class ApiError/);
    assert.ok(!i18n.api.files.some((f) => f.path.includes('batcher')));
    assert.match(renderApiReference(i18n), /### @signpost\/sdk-core\/errors\.d\.ts \(an internal dependency/);
  });

  it('collects example files by platform, skipping tests and node_modules', () => {
    const logger = byName['logger']!;
    assert.deepEqual(
      logger.examples.map((e) => [e.platform, e.path, e.language]),
      [
        ['browser', 'examples/browser.ts', 'ts'],
        ['node', 'examples/node.mjs', 'js'],
        ['react', 'examples/react.tsx', 'tsx'],
        ['nextjs', 'examples/nextjs/app/page.tsx', 'tsx'],
      ],
    );
  });

  it('notes what a package does not have yet', () => {
    const site = byName['site-manager']!;
    assert.equal(site.available, true);
    assert.match(site.notes.join('\n'), /no README\.md yet/);
    assert.match(site.notes.join('\n'), /no example files/);
    assert.match(renderInstallationGuide(site), /npm install @signpost\/site-manager/);
  });

  it('renders the installation guide, API reference and examples', () => {
    const logger = byName['logger']!;
    const install = renderInstallationGuide(logger);
    assert.match(install, /## Installation/);
    assert.match(install, /## Quick start\n\nCreate a logger and log\./);
    assert.match(install, /Peer dependencies.*`react@>=18`\./);
    assert.match(install, /Optional peer dependencies.*`pino@>=9`\./);
    const api = renderApiReference(logger);
    assert.match(api, /`import \.\.\. from "@signpost\/logger\/node"`/);
    assert.match(api, /### new Logger\(config\)/);
    const examples = renderCodeExamples(logger);
    assert.match(examples, /## React: examples\/react\.tsx\n\n````tsx\n/, 'a longer fence around code containing ```');
    assert.doesNotMatch(renderCodeExamples(logger, 'react'), /browser\.ts/);
    const all = renderPackageDocs(logger);
    for (const part of [
      '# @signpost/logger (version 1.2.3)\n\nStructured logs for Signpost\n\nStructured logging',
      '## License',
      '## Installation',
      '## API reference',
      '### Type declarations',
      '## Examples',
      '### Next.js: examples/nextjs/app/page.tsx',
    ]) {
      assert.ok(all.includes(part), part);
    }
    assert.equal(all.split('npm install @signpost/logger').length, 2, 'install command shown once');
  });

  it('the gather-docs script writes an importable content module', async () => {
    const out = join(fixtures.path, 'out', 'content.ts');
    await promisify(execFile)(process.execPath, [
      join(packageDir, 'scripts', 'gather-docs.ts'),
      '--packages-dir',
      fixtures.path,
      '--out',
      out,
    ]);
    const text = readFileSync(out, 'utf8');
    assert.match(text, /^\/\/ Generated by scripts\/gather-docs\.ts/);
    assert.match(text, /"npmName": "@signpost\/logger"/);
  });
});
