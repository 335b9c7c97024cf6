/**
 * The `signpost` bin stays runnable however dist is made: a build from scratch (tsc writes 0644
 * files) and `npm pack` (its prepack cleans and rebuilds) must both leave dist/index.js executable,
 * or `npx signpost` answers "Permission denied". Runs in a copy of the repository, so the dist other
 * tests use is never rebuilt under them.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { workspaceCopy, type WorkspaceCopy } from './workspace-copy.ts';

/** Name and mode of every file in a (gzipped) tar archive, read from the ustar headers. */
function tarModes(tgz: Buffer): Map<string, number> {
  const tar = gunzipSync(tgz);
  const modes = new Map<string, number>();
  const text = (start: number, length: number) =>
    tar
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= tar.length && tar[offset] !== 0; ) {
    const prefix = text(offset + 345, 155);
    const name = text(offset, 100);
    modes.set(prefix ? `${prefix}/${name}` : name, parseInt(text(offset + 100, 8).trim(), 8));
    const size = parseInt(text(offset + 124, 12).trim(), 8);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return modes;
}

const executable = (mode: number) => (mode & 0o111) === 0o111;

describe('the signpost bin after a build or a pack', { timeout: 600_000 }, () => {
  let copy: WorkspaceCopy;
  before(() => {
    copy = workspaceCopy(['cli']);
  });
  after(() => copy.remove());

  it('npm run build -w @signpost/cli from scratch leaves an executable bin that npx signpost runs', () => {
    const build = copy.run('npm', ['run', 'build', '-w', '@signpost/cli']);
    assert.equal(build.status, 0, build.stdout + build.stderr);
    const bin = join(copy.packageDir('cli'), 'dist', 'index.js');
    assert.ok(executable(statSync(bin).mode), `dist/index.js mode is ${(statSync(bin).mode & 0o777).toString(8)}`);
    const help = copy.run('npx', ['signpost', '--help']);
    assert.equal(help.status, 0, help.stdout + help.stderr);
    assert.match(help.stdout, /Usage: signpost/);
  });

  it('npm pack (which cleans and rebuilds) yields a tarball whose bin entry is executable', () => {
    const pack = copy.run('npm', ['pack', '--json', '--pack-destination', copy.root], copy.packageDir('cli'));
    assert.equal(pack.status, 0, pack.stdout + pack.stderr);
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[];
    const modes = tarModes(readFileSync(join(copy.root, info!.filename)));
    const manifest = JSON.parse(readFileSync(join(copy.packageDir('cli'), 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    for (const file of Object.values(manifest.bin)) {
      const mode = modes.get(`package/${file}`);
      assert.ok(mode !== undefined, `tarball has ${file}`);
      assert.ok(executable(mode), `${file} in the tarball has mode ${mode.toString(8)}`);
    }
    assert.equal(executable(modes.get('package/dist/program.js')!), false, 'only the bin is executable');
  });
});
