/**
 * `signpost sourcemaps …`: upload a build's source maps (and the minified files they map) for a
 * release or by their debug IDs, list and delete them. `upload` walks a folder like
 * `sentry-cli sourcemaps upload`: every `*.map`, with the JavaScript file whose sourceMappingURL
 * names it (or that is called like it without `.map`); each file is uploaded as `<url-prefix>/<path>`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import type { Command } from 'commander';
import { projectContext, usageExits, withProject, type CommonFlags } from '../manage/common.ts';
import { action, CliError, EXIT } from '../manage/errors.ts';
import { printJson, printTable, say } from '../manage/output.ts';

interface Artifact {
  id: string;
  release: string | null;
  dist: string | null;
  name: string;
  kind: 'source_map' | 'minified_source';
  debugId: string | null;
  sourceMappingUrl: string | null;
  size: number;
  createdAt: string;
}

interface UploadFlags extends CommonFlags {
  release?: string;
  dist?: string;
  urlPrefix: string;
}

interface ListFlags extends CommonFlags {
  release?: string;
  dist?: string;
}

const SCRIPT = /\.(m?js|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

function walk(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(path, found);
    } else if (entry.isFile()) {
      found.push(path);
    }
  }
  return found;
}

/** The last `//# sourceMappingURL=` of a script (not a data: URL). */
function sourceMappingUrl(text: string): string | undefined {
  let found: string | undefined;
  for (const match of text.slice(-4096).matchAll(/\/\/[#@]\s*sourceMappingURL=(\S+)\s*$/gm)) found = match[1];
  return found && !found.startsWith('data:') ? found : undefined;
}

export interface UploadGroup {
  /** Paths relative to the folder, with forward slashes. */
  map: string;
  minified: string | undefined;
}

/** Each map of the folder with the script that names it (or `<map without .map>`), if any. */
export function findUploads(dir: string): UploadGroup[] {
  const files = walk(dir).map((path) => relative(dir, path).split(sep).join('/'));
  const maps = files.filter((file) => file.endsWith('.map'));
  const scriptFor = new Map<string, string>();
  for (const script of files.filter((file) => SCRIPT.test(file))) {
    const url = sourceMappingUrl(readFileSync(join(dir, script), 'utf8'));
    if (url && !/^[a-z]+:/i.test(url)) {
      scriptFor.set(posix.normalize(posix.join(posix.dirname(script), url.split('?')[0]!)), script);
    }
  }
  return maps.map((map) => {
    const sibling = map.slice(0, -'.map'.length);
    const minified = scriptFor.get(map) ?? (files.includes(sibling) && SCRIPT.test(sibling) ? sibling : undefined);
    return { map, minified };
  });
}

function artifactName(prefix: string, path: string): string {
  return `${prefix.replace(/\/+$/, '')}/${path}`;
}

export function registerSourceMapCommands(program: Command): void {
  const sourcemaps = usageExits(
    program
      .command('sourcemaps')
      .description('Source maps of your JavaScript builds, for readable stacks of browser errors'),
  );

  withProject(
    sourcemaps
      .command('upload')
      .description("Upload a build folder's source maps and the minified files they map")
      .argument('<dir>', 'the build output folder (e.g. dist)')
      .option('-r, --release <release>', "the SDK's release (e.g. web@2.0.0); optional when the files carry debug IDs")
      .option('--dist <dist>', "the SDK's dist, when the release has several builds")
      .option('--url-prefix <prefix>', 'the URL path the folder is served at (~ means any host)', '~'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost sourcemaps upload --release web@2.0.0 dist\n  signpost sourcemaps upload --release web@2.0.0 --url-prefix "~/static/js" build/static/js',
    )
    .action(
      action(async (dir: string, flags: UploadFlags) => {
        let isDir = false;
        try {
          isDir = statSync(dir).isDirectory();
        } catch {}
        if (!isDir) throw new CliError(`${dir} is not a folder`, EXIT.usage);
        const groups = findUploads(dir);
        if (groups.length === 0) throw new CliError(`No *.map files in ${dir}`, EXIT.usage);
        const { client, base } = projectContext(flags);
        const uploaded: Artifact[] = [];
        for (const group of groups) {
          const files = [group.minified, group.map]
            .filter((path): path is string => path !== undefined)
            .map((path) => ({
              name: artifactName(flags.urlPrefix, path),
              content: readFileSync(join(dir, path), 'utf8'),
            }));
          const result = await client.post<{ artifacts: Artifact[] }>(`${base}/source-maps`, {
            ...(flags.release === undefined ? {} : { release: flags.release }),
            ...(flags.dist === undefined ? {} : { dist: flags.dist }),
            files,
          });
          uploaded.push(...result.artifacts);
        }
        if (flags.json) return printJson({ artifacts: uploaded });
        const where = flags.release ? ` for release ${flags.release}${flags.dist ? ` (dist ${flags.dist})` : ''}` : '';
        say(`Uploaded ${uploaded.length} file${uploaded.length === 1 ? '' : 's'}${where}:`);
        for (const artifact of uploaded) {
          const kind = artifact.kind === 'source_map' ? 'source map' : 'minified';
          say(`  ${artifact.name}  (${kind}${artifact.debugId ? `, debug ID ${artifact.debugId}` : ''})`);
        }
      }),
    );

  withProject(
    sourcemaps
      .command('list')
      .description('Uploaded files, newest first')
      .option('-r, --release <release>', 'only this release')
      .option('--dist <dist>', 'only this dist'),
  ).action(
    action(async (flags: ListFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ artifacts: Artifact[] }>(`${base}/source-maps`, {
        release: flags.release,
        dist: flags.dist,
      });
      if (flags.json) return printJson(result);
      printTable(
        ['id', 'release', 'dist', 'kind', 'size', 'debug id', 'name'],
        result.artifacts.map((a) => [a.id, a.release, a.dist, a.kind, a.size, a.debugId, a.name]),
        'No source maps uploaded.',
      );
    }),
  );

  withProject(
    sourcemaps
      .command('delete')
      .description('Delete one uploaded file by id, or every file of a release')
      .argument('[id]', 'the file id (from `sourcemaps list`)')
      .option('-r, --release <release>', 'delete every file of this release')
      .option('--dist <dist>', 'with --release: only this dist'),
  ).action(
    action(async (id: string | undefined, flags: ListFlags) => {
      if ((id === undefined) === (flags.release === undefined)) {
        throw new CliError('Give either a file id or --release', EXIT.usage);
      }
      const { client, base } = projectContext(flags);
      if (id !== undefined) {
        await client.delete(`${base}/source-maps/${encodeURIComponent(id)}`);
        if (flags.json) return printJson({ deleted: id });
        return say(`Deleted ${id}.`);
      }
      const query = new URLSearchParams({ release: flags.release! });
      if (flags.dist) query.set('dist', flags.dist);
      const result = await client.delete<{ deleted: number }>(`${base}/source-maps?${query}`);
      if (flags.json) return printJson(result);
      say(`Deleted ${result.deleted} file${result.deleted === 1 ? '' : 's'} of release ${flags.release}.`);
    }),
  );
}
