/** `signpost changelog …`: drafts, published entries, publishing. */
import type { Command } from 'commander';
import {
  defined,
  oneOf,
  projectContext,
  readText,
  requireChanges,
  usageExits,
  withPaging,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printPaging, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

const STATUSES = ['new', 'improved', 'fixed'] as const;

type Entry = Answer<'manageGetChangelogEntry'>;

function showEntry(entry: Entry): void {
  printFields([
    ['Id', entry.id],
    ['Summary', entry.summary],
    ['Status', `${entry.statusLabel} (${entry.statusKey})`],
    ['Feature', entry.featureId ? `${entry.featureTitle} (${entry.featureId})` : '(standalone)'],
    ['Published', entry.published ? entry.publishedAt : 'no (draft)'],
    ['Created', entry.createdAt],
  ]);
  if (entry.description) say(`\n${entry.description}`);
}

interface EntryFlags extends CommonFlags {
  summary?: string;
  description?: string;
  descriptionFile?: string;
  feature?: string;
  standalone?: boolean;
  status?: (typeof STATUSES)[number];
  publish?: boolean;
  drafts?: boolean;
  published?: boolean;
  search?: string;
  limit?: number;
  offset?: number;
}

const entryOptions = (command: Command) =>
  command
    .option('--description <html>', 'HTML description (sanitised by the server)')
    .option('--description-file <file>', 'read the HTML description from a file (- for standard input)')
    .option('--feature <id>', 'link to a feature: its title and status show live')
    .option('--status <key>', 'status of a standalone entry: new, improved or fixed', oneOf(STATUSES));

export function registerChangelogCommands(program: Command): void {
  const changelog = usageExits(program.command('changelog').description("A project's changelog"));

  withPaging(
    withProject(changelog.command('list').description('Entries, drafts included, newest first'))
      .option('--drafts', 'drafts only')
      .option('--published', 'published entries only')
      .option('--search <text>', 'text in summary or description'),
    50,
  ).action(
    action(async (flags: EntryFlags) => {
      const { client, base } = projectContext(flags);
      const published = flags.drafts ? false : flags.published ? true : undefined;
      const result = await client.get<{ entries: Entry[]; total: number; offset: number }>(`${base}/changelog`, {
        published,
        q: flags.search,
        limit: flags.limit,
        offset: flags.offset,
      });
      if (flags.json) return printJson(result);
      printTable(
        ['id', 'published', 'status', 'summary'],
        result.entries.map((e) => [e.id, e.publishedAt ?? 'draft', e.statusLabel, e.summary]),
        'No changelog entries.',
      );
      printPaging(result.entries.length, result.total, result.offset);
    }),
  );

  withProject(changelog.command('show').description('One entry').argument('<id>', 'entry id')).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const entry = await client.get<Entry>(`${base}/changelog/${encodeURIComponent(id)}`);
      if (flags.json) printJson(entry);
      else showEntry(entry);
    }),
  );

  entryOptions(
    withProject(
      changelog
        .command('create')
        .description('Create an entry (a draft unless --publish)')
        .requiredOption('--summary <text>', 'one-line summary'),
    ),
  )
    .option('--publish', 'publish at once')
    .addHelpText(
      'after',
      '\nExamples:\n  signpost changelog create --summary "Faster search" --status improved --description-file notes.html --publish\n' +
        '  signpost changelog create --summary "Dark mode is here" --feature feat_123',
    )
    .action(
      action(async (flags: EntryFlags) => {
        const { client, base } = projectContext(flags);
        const entry = await client.post<Entry>(
          `${base}/changelog`,
          defined({
            summary: flags.summary,
            description: readText(flags.description, flags.descriptionFile, 'description'),
            featureId: flags.feature,
            statusKey: flags.status,
            published: flags.publish,
          }),
        );
        if (flags.json) return printJson(entry);
        say(`Created ${entry.published ? 'and published ' : ''}changelog entry ${entry.id}.`);
      }),
    );

  entryOptions(
    withProject(
      changelog
        .command('edit')
        .description('Change an entry')
        .argument('<id>', 'entry id')
        .option('--summary <text>', 'one-line summary'),
    ),
  )
    .option('--standalone', 'unlink it from its feature')
    .action(
      action(async (id: string, flags: EntryFlags) => {
        const { client, base } = projectContext(flags);
        const body = defined({
          summary: flags.summary,
          description: readText(flags.description, flags.descriptionFile, 'description'),
          featureId: flags.standalone ? null : flags.feature,
          statusKey: flags.status,
        });
        requireChanges(body, '--summary, --description, --description-file, --feature, --standalone, --status');
        const entry = await client.patch<Entry>(`${base}/changelog/${encodeURIComponent(id)}`, body);
        if (flags.json) printJson(entry);
        else showEntry(entry);
      }),
    );

  for (const [name, description] of [
    ['publish', 'Publish an entry: it shows in the public changelog'],
    ['unpublish', 'Turn an entry back into a draft'],
  ] as const) {
    withProject(changelog.command(name).description(description).argument('<id>', 'entry id')).action(
      action(async (id: string, flags: CommonFlags) => {
        const { client, base } = projectContext(flags);
        const entry = await client.post<Entry>(`${base}/changelog/${encodeURIComponent(id)}/${name}`);
        if (flags.json) printJson(entry);
        else say(entry.published ? `Published ${entry.id} at ${entry.publishedAt}.` : `${entry.id} is a draft again.`);
      }),
    );
  }

  withProject(changelog.command('delete').description('Delete an entry').argument('<id>', 'entry id')).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(`${base}/changelog/${encodeURIComponent(id)}`);
      if (flags.json) printJson({ deleted: id });
      else say(`Deleted ${id}.`);
    }),
  );
}
