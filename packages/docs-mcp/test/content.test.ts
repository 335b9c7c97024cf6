/**
 * The docs built into dist/ cover every SDK package that exists in the monorepo. A package whose
 * directory does not exist yet is skipped; once all five exist, none may be missing.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { content } from '../dist/generated/content.js';
import { EXAMPLE_PLATFORMS, PACKAGE_NAMES } from '../dist/content.js';
import { gatherExamples } from '../scripts/gather/examples.ts';
import { packagesDir } from './support.ts';

const present = PACKAGE_NAMES.filter((name) => existsSync(join(packagesDir, name)));

describe('built docs content', () => {
  it('has an entry for each of the five packages', () => {
    assert.deepEqual(
      content.packages.map((p) => p.name),
      [...PACKAGE_NAMES],
    );
  });

  for (const name of PACKAGE_NAMES) {
    const dir = join(packagesDir, name);
    it(`covers @signpost/${name}`, { skip: existsSync(dir) ? false : `packages/${name} does not exist yet` }, () => {
      const p = content.packages.find((x) => x.name === name)!;
      assert.equal(p.available, true, 'gathered, not a placeholder');
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        description?: string;
        version?: string;
      };
      if (pkg.description) assert.equal(p.description, pkg.description);
      assert.equal(p.version, pkg.version ?? null);
      if (existsSync(join(dir, 'README.md')))
        assert.ok(p.sections.length > 0 || p.readmeIntro.length > 0, 'README gathered');
      if (existsSync(join(dir, 'src')) && readdirSync(join(dir, 'src')).some((f) => f.endsWith('.ts'))) {
        assert.ok(p.api.files.length > 0, 'API declarations gathered');
      }
      assert.equal(p.examples.length, gatherExamples(dir).length, 'every example file gathered');
    });
  }

  it('has examples for plain browser, Node, React and Next.js across the SDK packages', {
    skip:
      present.length < PACKAGE_NAMES.length
        ? `only ${present.length} of ${PACKAGE_NAMES.length} SDK packages exist yet`
        : false,
  }, () => {
    const platforms = new Set(content.packages.flatMap((p) => p.examples.map((e) => e.platform)));
    for (const platform of EXAMPLE_PLATFORMS)
      assert.ok(platforms.has(platform), `some package has a ${platform} example`);
  });
});
