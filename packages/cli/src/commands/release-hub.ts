/**
 * `signpost links …`, `signpost resolve …` and `signpost releases overview`: releases as the hub
 * (issue 33). Links tie an idea or bug to an error group; resolving one (or a group) in a release
 * moves it, and the ideas linked to the group, to done when that release is created.
 */
import type { Command } from 'commander';
import { projectContext, usageExits, withProject, type CommonFlags } from '../manage/common.ts';
import { action, CliError, EXIT } from '../manage/errors.ts';
import { printFields, printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type GroupLinks = Answer<'manageListErrorGroupLinks'>;
type FeatureLinks = Answer<'manageListFeatureErrorLinks'>;
type Resolution = Answer<'manageResolveFeatureInRelease'>;
type Overview = Answer<'manageGetReleaseOverview'>;

interface LinkFlags extends CommonFlags {
  group?: string;
  feature?: string;
}
interface ResolveFlags extends LinkFlags {
  release?: string;
  notify?: boolean;
  cancel?: boolean;
}

/** The item path of exactly one of --group and --feature. */
function itemPath(flags: LinkFlags): string {
  if (Boolean(flags.group) === Boolean(flags.feature))
    throw new CliError('Give one of --group <id> and --feature <id>', EXIT.usage);
  return flags.group
    ? `/error-groups/${encodeURIComponent(flags.group)}`
    : `/features/${encodeURIComponent(flags.feature!)}`;
}

const showResolution = (r: Resolution | null) =>
  !r
    ? 'not resolved in a release'
    : r.resolvedInRelease
      ? `shipped in ${r.resolvedInRelease}`
      : `resolved in ${r.release ?? `the next release (after ${r.afterRelease ?? 'none yet'})`}`;

export function registerReleaseHubCommands(program: Command): void {
  const links = usageExits(program.command('links').description('Links between ideas or bugs and error groups'));

  withProject(
    links
      .command('show')
      .description("An error group's ideas, bugs and reporters, or an idea's error groups")
      .option('--group <id>', 'an error group')
      .option('--feature <id>', 'an idea or bug'),
  ).action(
    action(async (flags: LinkFlags) => {
      const { client, base } = projectContext(flags);
      const path = itemPath(flags);
      if (flags.group) {
        const result = await client.get<GroupLinks>(`${base}${path}/links`);
        if (flags.json) return printJson(result);
        printTable(
          ['id', 'type', 'status', 'source', 'title'],
          result.items.map((i) => [i.id, i.type, i.status, i.source, i.title]),
          'No linked ideas or bugs.',
        );
        say(`Reported by ${result.reporters.length} people; ${showResolution(result.resolution)}.`);
        return;
      }
      const result = await client.get<FeatureLinks>(`${base}${path}/error-links`);
      if (flags.json) return printJson(result);
      printTable(
        ['id', 'status', 'events', 'users', 'title'],
        result.groups.map((g) => [g.id, g.status, g.events, g.users, g.title]),
        'No linked error groups.',
      );
      say(`${result.events} events, ${result.users} users; ${showResolution(result.resolution)}.`);
    }),
  );

  for (const [name, description] of [
    ['add', 'Link an idea or bug to an error group'],
    ['remove', 'Unlink an idea or bug from an error group'],
  ] as const) {
    withProject(
      links
        .command(name)
        .description(description)
        .argument('<groupId>', 'error group')
        .argument('<featureId>', 'idea or bug'),
    ).action(
      action(async (groupId: string, featureId: string, flags: CommonFlags) => {
        const { client, base } = projectContext(flags);
        const path = `${base}/error-groups/${encodeURIComponent(groupId)}/links`;
        if (name === 'add') await client.post(path, { featureId });
        else await client.delete(`${path}/${encodeURIComponent(featureId)}`);
        if (flags.json) printJson({ groupId, featureId, linked: name === 'add' });
        else say(name === 'add' ? `Linked ${featureId} to ${groupId}.` : `Unlinked ${featureId} from ${groupId}.`);
      }),
    );
  }

  withProject(
    program
      .command('resolve')
      .description(
        'Resolve an error group, idea or bug in a release: when it is created, linked ideas and bugs move to done and their followers are told',
      )
      .option('--group <id>', 'an error group (its linked ideas and bugs ship with it)')
      .option('--feature <id>', 'an idea or bug')
      .option('--release <version>', 'the release (default: the next one)')
      .option('--no-notify', 'tell no follower when it ships')
      .option('--cancel', 'cancel a resolution that has not shipped'),
  )
    .addHelpText('after', '\nExample:\n  signpost resolve --group eg_123 --release 2.4.1')
    .action(
      action(async (flags: ResolveFlags) => {
        const { client, base } = projectContext(flags);
        const path = `${base}${itemPath(flags)}/resolution`;
        if (flags.cancel) {
          await client.delete(path);
          if (flags.json) printJson({ cancelled: true });
          else say('Resolution cancelled.');
          return;
        }
        const body = { ...(flags.release ? { release: flags.release } : {}), notify: flags.notify !== false };
        const result = await client.put<Resolution>(path, body);
        if (flags.json) printJson(result);
        else say(`Resolved: ${showResolution(result)}.`);
      }),
    );
}

/** `signpost releases overview <version>`, added to the `releases` command. */
export function registerReleaseOverviewCommand(releases: Command): void {
  withProject(
    releases
      .command('overview')
      .description('What broke and what shipped in a release, its health and the previous release')
      .argument('<version>', 'version, as listed or as an SDK sends it (shop@1.4.2)'),
  ).action(
    action(async (version: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const o = await client.get<Overview>(`${base}/releases/${encodeURIComponent(version)}/overview`);
      if (flags.json) return printJson(o);
      const pct = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(2)} %`);
      printFields([
        ['Version', o.version],
        ['Crash-free sessions', pct(o.health?.crashFreeSessions)],
        ['Crash-free users', pct(o.health?.crashFreeUsers)],
        ['Users', o.health?.users.total ?? 0],
        ['New error groups', `${o.broke.new.groups} (${o.broke.new.events} events)`],
        ['Regressed groups', `${o.broke.regressed.groups} (${o.broke.regressed.events} events)`],
        ['Shipped', o.shipped.items.map((i) => i.title).join('; ') || '–'],
        [
          'Changelog entry',
          o.shipped.changelogEntry
            ? `${o.shipped.changelogEntry.id}${o.shipped.changelogEntry.published ? '' : ' (draft)'}`
            : '–',
        ],
        ['Previous release', o.comparison.previous ?? '–'],
      ]);
    }),
  );
}
