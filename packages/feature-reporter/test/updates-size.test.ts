/**
 * Size budgets of the "What's new" and roadmap entry points (issue 35), measured as README's
 * `## Size` table is (`../sdk-core/scripts/size.mjs`: esbuild bundle with sdk-core, minified,
 * gzip 9), and the README's rows for them kept true. Both also load in Node.js without a DOM.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BUDGET_KB: Record<string, number> = {
  '@signpost/feature-reporter/updates': 7,
  '@signpost/feature-reporter/updates/react': 7.5,
  '@signpost/feature-reporter/roadmap': 6,
  '@signpost/feature-reporter/roadmap/react': 6.5,
};

test('the updates and roadmap entry points stay within their gzip budgets, as README states', () => {
  const dir = fileURLToPath(new URL('..', import.meta.url));
  const measured = JSON.parse(
    execFileSync(
      process.execPath,
      [fileURLToPath(new URL('../../sdk-core/scripts/size.mjs', import.meta.url)), '--json'],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    ),
  ) as { entry: string; gzipped: number }[];
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('## Size'));
  for (const [entry, budget] of Object.entries(BUDGET_KB)) {
    const size = measured.find((m) => m.entry === entry);
    assert.ok(size, `${entry} is measured`);
    const kb = size.gzipped / 1024;
    assert.ok(kb <= budget, `${entry}: ${kb.toFixed(1)} KB min+gzip, budget ${budget} KB`);
    const row = table.split('\n').find((line) => line.startsWith(`| \`${entry}\` |`));
    const stated = Number(/([\d.]+) KB/.exec(row?.split('|')[3] ?? '')?.[1]);
    assert.ok(Math.abs(stated - kb) <= 0.2, `${entry}: README says ${stated} KB, measured ${kb.toFixed(1)} KB`);
  }
});

test('the updates and roadmap entry points load in Node.js and register nothing there', async () => {
  assert.equal((await import('@signpost/feature-reporter/updates')).defineUpdatesWidget(), undefined);
  assert.equal((await import('@signpost/feature-reporter/roadmap')).defineRoadmapWidget(), undefined);
  await import('@signpost/feature-reporter/updates/react');
  await import('@signpost/feature-reporter/roadmap/react');
});
