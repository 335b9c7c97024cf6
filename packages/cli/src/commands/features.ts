/** `signpost features …`: triage feature requests and bugs (status, visibility, notes), merge duplicates. */
import type { Command } from 'commander';
import {
  defined,
  oneOf,
  projectContext,
  requireChanges,
  usageExits,
  withPaging,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { registerFeatureTagCommand } from './tags.ts';
import { action, CliError } from '../manage/errors.ts';
import { printFields, printJson, printPaging, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

const STATUSES = ['new', 'open', 'planned', 'in-progress', 'in-review', 'accepted', 'done', 'declined'] as const;

type Feature = Answer<'manageGetFeature'>;

function showFeature(f: Feature): void {
  printFields([
    ['Id', f.id],
    ['Title', f.title],
    ['Type', f.type],
    ['Status', f.status],
    ['Visibility', f.internal ? 'internal (hidden from public reads)' : 'public'],
    ['Votes', f.voteCount],
    ['Comments', f.commentCount],
    ['Key environment', f.environment],
    ['Developer notes', f.developerNotes],
    ['Created', f.createdAt],
  ]);
  say(`\n${f.description}`);
}

export function registerFeatureCommands(program: Command): void {
  const features = usageExits(
    program.command('features').description("A project's feature requests and bugs, internal ones included"),
  );

  withPaging(
    withProject(features.command('list').description('Features, newest first'))
      .option('--status <status>', STATUSES.join(', '), oneOf(STATUSES))
      .option('--type <type>', 'feature or bug', oneOf(['feature', 'bug'] as const))
      .option('--env <env>', 'live or test key submissions', oneOf(['live', 'test'] as const))
      .option('--internal', 'internal items only')
      .option('--public', 'public items only')
      .option('--search <text>', 'text in title, description or notes')
      .option(
        '--sort <order>',
        'newest, oldest, votes, comments or updated',
        oneOf(['newest', 'oldest', 'votes', 'comments', 'updated'] as const),
      )
      .option('-q, --quiet', 'print only the ids, one a line, e.g. for FEATURE=$(signpost features list -q --limit 1)'),
    50,
  ).action(
    action(async (flags: CommonFlags & Record<string, any>) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ features: Feature[]; total: number; offset: number }>(`${base}/features`, {
        status: flags['status'],
        type: flags['type'],
        environment: flags['env'],
        internal: flags['internal'] ? true : flags['public'] ? false : undefined,
        q: flags['search'],
        sort: flags['sort'],
        limit: flags['limit'],
        offset: flags['offset'],
      });
      if (flags.json) return printJson(result);
      if (flags['quiet']) {
        for (const feature of result.features) say(feature.id);
        return;
      }
      printTable(
        ['id', 'status', 'type', 'votes', 'internal', 'title'],
        result.features.map((f) => [f.id, f.status, f.type, f.voteCount, f.internal, f.title]),
        'No features.',
      );
      printPaging(result.features.length, result.total, result.offset);
    }),
  );

  withProject(
    features.command('show').description('One feature with its developer notes').argument('<id>', 'feature id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const feature = await client.get<Feature>(`${base}/features/${encodeURIComponent(id)}`);
      if (flags.json) printJson(feature);
      else showFeature(feature);
    }),
  );

  withProject(
    features
      .command('create')
      .description(
        "File an idea on behalf of one of the project's people (or a new address): theirs, with their vote, triaged",
      )
      .requiredOption('--title <text>', 'title')
      .requiredOption('--description <text>', 'what is wanted or what goes wrong')
      .requiredOption('--for <person>', "the person: an e-mail address, or a person's id (signpost people list)")
      .option('--name <name>', 'the name of a new person (with an e-mail address)')
      .option('--type <type>', 'feature or bug', oneOf(['feature', 'bug'] as const))
      .option('--internal', 'hide it from the public board and APIs'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost features create --for ada@example.com --title "Export to PDF" --description "Asked in a call."',
    )
    .action(
      action(async (flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const who = String(flags['for']).trim();
        // An address has an @; anything else is a person's id. The server says which it cannot find.
        const author = who.includes('@') ? defined({ email: who, name: flags['name'] }) : { personId: who };
        if (!who.includes('@') && flags['name'] !== undefined) {
          throw new CliError('--name goes only with an e-mail address in --for');
        }
        const feature = await client.post<Feature>(`${base}/features`, {
          ...defined({
            title: flags['title'],
            description: flags['description'],
            type: flags['type'],
            internal: flags['internal'] ? true : undefined,
          }),
          ...author,
        });
        if (flags.json) printJson(feature);
        else say(`Created ${feature.id} for ${who}: ${feature.title} (${feature.status}, ${feature.voteCount} vote).`);
      }),
    );

  withProject(
    features
      .command('update')
      .description('Change status, visibility, notes, title or type')
      .argument('<id>', 'feature id')
      .option('--status <status>', STATUSES.join(', '), oneOf(STATUSES))
      .option('--internal', 'hide it from the public board and APIs')
      .option('--public', 'show it publicly')
      .option('--notes <text>', 'developer notes ("" clears them)')
      .option('--title <text>', 'title')
      .option('--type <type>', 'feature or bug', oneOf(['feature', 'bug'] as const)),
  )
    .addHelpText('after', '\nExample:\n  signpost features update feat_123 --status planned --public')
    .action(
      action(async (id: string, flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const notes = flags['notes'] as string | undefined;
        const body = defined({
          status: flags['status'],
          internal: flags['internal'] ? true : flags['public'] ? false : undefined,
          developerNotes: notes === undefined ? undefined : notes === '' ? null : notes,
          title: flags['title'],
          type: flags['type'],
        });
        requireChanges(body, '--status, --internal, --public, --notes, --title, --type');
        const feature = await client.patch<Feature>(`${base}/features/${encodeURIComponent(id)}`, body);
        if (flags.json) printJson(feature);
        else say(`${feature.title}: ${feature.status}, ${feature.internal ? 'internal' : 'public'}.`);
      }),
    );

  withProject(
    features
      .command('merge')
      .description(
        'Merge a duplicate into another feature: votes (each voter once) and comments move over, the duplicate is deleted',
      )
      .argument('<duplicateId>', 'the feature that goes away')
      .requiredOption('--into <id>', 'the feature that is kept'),
  ).action(
    action(async (duplicateId: string, flags: CommonFlags & { into: string }) => {
      const { client, base } = projectContext(flags);
      const result = await client.post<{
        feature: Feature;
        votesMoved: number;
        votesAlreadyPresent: number;
        commentsMoved: number;
      }>(`${base}/features/${encodeURIComponent(duplicateId)}/merge`, { targetId: flags.into });
      if (flags.json) return printJson(result);
      say(
        `Merged ${duplicateId} into ${result.feature.id}: ${result.votesMoved} vote(s) moved (${result.votesAlreadyPresent} already there), ` +
          `${result.commentsMoved} comment(s) moved. Now ${result.feature.voteCount} votes, ${result.feature.commentCount} comments.`,
      );
    }),
  );

  withProject(
    features
      .command('delete')
      .description('Delete a feature with its votes and comments')
      .argument('<id>', 'feature id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(`${base}/features/${encodeURIComponent(id)}`);
      if (flags.json) printJson({ deleted: id });
      else say(`Deleted ${id}.`);
    }),
  );

  registerFeatureTagCommand(features);
}
