/** `signpost releases …`: the releases the public version check compares against. */
import type { Command } from 'commander';
import {
  defined,
  projectContext,
  readText,
  requireChanges,
  usageExits,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';
import { registerReleaseOverviewCommand } from './release-hub.ts';

type Release = Answer<'manageGetRelease'>;

interface ReleaseFlags extends CommonFlags {
  newVersion?: string;
  title?: string;
  notes?: string;
  notesFile?: string;
  downloadUrl?: string;
  date?: string;
  beta?: boolean;
  required?: boolean;
  commit?: string;
}

const releaseOptions = (command: Command) =>
  command
    .option('--title <text>', 'title')
    .option('--notes <text>', 'release notes')
    .option('--notes-file <file>', 'read the release notes from a file (- for standard input)')
    .option('--download-url <url>', 'where to get it')
    .option('--date <iso>', 'release date (ISO 8601; default now)')
    .option('--beta', 'a beta: offered only to clients on a prerelease')
    .option('--no-beta', 'not a beta')
    .option('--required', 'clients below this version must update')
    .option('--no-required', 'not required')
    .option('--commit <hash>', 'git commit of the release (clients may report it instead of a version)');

function body(flags: ReleaseFlags) {
  return defined({
    title: flags.title,
    releaseNotes: readText(flags.notes, flags.notesFile, 'release notes'),
    downloadUrl: flags.downloadUrl,
    releaseDate: flags.date,
    isBeta: flags.beta,
    required: flags.required,
    gitCommit: flags.commit,
  });
}

function showRelease(release: Release): void {
  printFields([
    ['Version', release.version],
    ['Title', release.title],
    ['Date', release.releaseDate],
    ['Beta', release.isBeta],
    ['Required', release.required],
    ['Download', release.downloadUrl],
    ['Commit', release.gitCommit],
  ]);
  if (release.releaseNotes) say(`\n${release.releaseNotes}`);
}

export function registerReleaseCommands(program: Command): void {
  const releases = usageExits(
    program.command('releases').description("A project's releases, for the public version check"),
  );

  withProject(
    releases.command('list').description('Releases, highest version first, then versions seen but not created'),
  ).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{
        releases: Release[];
        seen?: { version: string; source: string; firstSeenAt: string }[];
      }>(`${base}/releases`);
      if (flags.json) return printJson(result);
      printTable(
        ['version', 'date', 'beta', 'required', 'title'],
        result.releases.map((r) => [r.version, r.releaseDate.slice(0, 10), r.isBeta, r.required, r.title]),
        'No releases yet.',
      );
      // Versions live events or sessions reported that nobody created (they went live when first seen).
      const seen = result.seen ?? [];
      if (seen.length > 0) {
        say('\nSeen, not created:');
        printTable(
          ['version', 'first seen', 'in'],
          seen.map((s) => [s.version, s.firstSeenAt.slice(0, 16).replace('T', ' '), s.source]),
          '',
        );
      }
    }),
  );

  withProject(releases.command('show').description('One release').argument('<version>', 'SemVer version')).action(
    action(async (version: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const release = await client.get<Release>(`${base}/releases/${encodeURIComponent(version)}`);
      if (flags.json) printJson(release);
      else showRelease(release);
    }),
  );

  releaseOptions(
    withProject(
      releases
        .command('create')
        .description('Add a release')
        .argument('<version>', 'SemVer version, e.g. 1.4.0 or 2.0.0-beta.1'),
    ),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost releases create 1.4.0 --title "Dark mode" --notes-file CHANGES.md --download-url https://example.com/app-1.4.0.dmg',
    )
    .action(
      action(async (version: string, flags: ReleaseFlags) => {
        const { client, base } = projectContext(flags);
        const release = await client.post<Release>(`${base}/releases`, { version, ...body(flags) });
        if (flags.json) return printJson(release);
        say(
          `Added release ${release.version}${release.isBeta ? ' (beta)' : ''}${release.required ? ' (required)' : ''}.`,
        );
      }),
    );

  releaseOptions(
    withProject(
      releases
        .command('edit')
        .description('Change a release')
        .argument('<version>', 'current version')
        .option('--new-version <version>', 'change the version itself'),
    ),
  ).action(
    action(async (version: string, flags: ReleaseFlags) => {
      const { client, base } = projectContext(flags);
      const changes = { ...defined({ version: flags.newVersion }), ...body(flags) };
      requireChanges(
        changes,
        '--new-version, --title, --notes, --notes-file, --download-url, --date, --beta, --required, --commit',
      );
      const release = await client.patch<Release>(`${base}/releases/${encodeURIComponent(version)}`, changes);
      if (flags.json) printJson(release);
      else showRelease(release);
    }),
  );

  withProject(releases.command('delete').description('Delete a release').argument('<version>', 'version')).action(
    action(async (version: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(`${base}/releases/${encodeURIComponent(version)}`);
      if (flags.json) printJson({ deleted: version });
      else say(`Deleted release ${version}.`);
    }),
  );

  registerReleaseOverviewCommand(releases);
}
