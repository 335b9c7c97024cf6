/**
 * Checks that the sizes a README states (its `## Size` table: `| \`entry\` | min | min+gzip |`)
 * match what `scripts/size.mjs` measures now, within `toleranceKb`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZE_SCRIPT = fileURLToPath(new URL('../sdk-core/scripts/size.mjs', import.meta.url));

export function checkReadmeSizes(
  packageDir: string,
  toleranceKb = 0.2,
): { entry: string; measuredKb: number; statedKb: number }[] {
  const measured = JSON.parse(
    execFileSync(process.execPath, [SIZE_SCRIPT, '--json'], { cwd: packageDir, encoding: 'utf8' }),
  ) as { entry: string; gzipped: number }[];
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const size = readme.slice(readme.indexOf('## Size'));
  return measured.map(({ entry, gzipped }) => {
    const row = size.split('\n').find((line) => line.startsWith(`| \`${entry}\` |`));
    if (!row) throw new Error(`README.md ## Size has no row for ${entry}`);
    const stated = /([\d.]+) KB/.exec(row.split('|')[3] ?? '');
    if (!stated) throw new Error(`README.md ## Size row for ${entry} has no min+gzip size`);
    const measuredKb = gzipped / 1024;
    const statedKb = Number(stated[1]);
    if (Math.abs(measuredKb - statedKb) > toleranceKb) {
      throw new Error(
        `${entry}: README says ${statedKb} KB min+gzip, measured ${measuredKb.toFixed(1)} KB; run npm run size and update README.md`,
      );
    }
    return { entry, measuredKb, statedKb };
  });
}
