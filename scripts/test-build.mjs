// A package's tests start with this: it builds what the tests load (`npm run build` in each folder
// named, then in the package itself) unless `npm test` at the root built every package already.
// The root runs packages side by side (scripts/test-all.mjs); a build that empties a dist/ while
// another lane loads from it would fail that lane at random, so there every package is built
// once, before any test, and SIGNPOST_TEST_PREBUILT=1 tells each package not to build again.
// Usage (from a package's folder): node ../../scripts/test-build.mjs [../other-package ...]
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

if (process.env.SIGNPOST_TEST_PREBUILT === '1') process.exit(0);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const dir of [...process.argv.slice(2), '.']) {
  const build = spawnSync(npm, ['run', 'build', '--silent'], { cwd: resolve(dir), stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
