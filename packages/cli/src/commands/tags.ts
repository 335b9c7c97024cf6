/** `signpost tags …` and `signpost features tag …`: a project's tags on ideas, shown and filterable on the board. */
import { type Command, InvalidArgumentError } from 'commander';
import type { Client } from '../manage/client.ts';
import {
  defined,
  projectContext,
  requireChanges,
  usageExits,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action, CliError } from '../manage/errors.ts';
import { printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type Tag = Answer<'manageListTags'>['tags'][number];

/** `#rrggbb`, or `none` (kept as given; `colorValue` turns it into null for the API). */
function color(raw: string): string {
  if (raw.toLowerCase() !== 'none' && !/^#[0-9a-fA-F]{6}$/.test(raw)) {
    throw new InvalidArgumentError('Use a colour as #rrggbb, or none.');
  }
  return raw;
}

const colorValue = (raw: string | undefined) =>
  raw === undefined ? undefined : raw.toLowerCase() === 'none' ? null : raw;

async function projectTags(client: Client, base: string): Promise<Tag[]> {
  return (await client.get<{ tags: Tag[] }>(`${base}/tags`)).tags;
}

/** The tags named by id or by name (exactly, else case-insensitively); an unknown one fails naming it. */
function resolveTags(known: Tag[], wanted: string[]): Tag[] {
  return wanted.map((given) => {
    const found =
      known.find((tag) => tag.id === given) ??
      known.find((tag) => tag.name === given) ??
      known.find((tag) => tag.name.toLowerCase() === given.toLowerCase());
    if (!found) {
      throw new CliError(
        `No tag "${given}" in this project. Tags: ${known.map((tag) => tag.name).join(', ') || '(none)'}; create it with \`signpost tags create\``,
      );
    }
    return found;
  });
}

export function registerTagCommands(program: Command): void {
  const tags = usageExits(program.command('tags').description("A project's tags on ideas"));

  withProject(tags.command('list').description('Tags, by name')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const list = await projectTags(client, base);
      if (flags.json) return printJson({ tags: list });
      printTable(
        ['id', 'name', 'color'],
        list.map((tag) => [tag.id, tag.name, tag.color ?? '']),
        'No tags.',
      );
    }),
  );

  withProject(
    tags
      .command('create')
      .description('Create a tag (1 to 40 characters, unique in the project)')
      .argument('<name>', 'tag name')
      .option('--color <#rrggbb>', 'its colour', color),
  )
    .addHelpText('after', '\nExample:\n  signpost tags create Mobile --color "#3366ff"')
    .action(
      action(async (name: string, flags: CommonFlags & { color?: string }) => {
        const { client, base } = projectContext(flags);
        const tag = await client.post<Tag>(`${base}/tags`, defined({ name, color: colorValue(flags.color) }));
        if (flags.json) return printJson(tag);
        say(`Created tag ${tag.name} (${tag.id}).`);
      }),
    );

  withProject(
    tags
      .command('rename')
      .description('Rename a tag, or change its colour')
      .argument('<tag>', 'tag id or name')
      .argument('[new-name]', 'its new name')
      .option('--color <#rrggbb|none>', 'a new colour, or none', color),
  ).action(
    action(async (given: string, newName: string | undefined, flags: CommonFlags & { color?: string }) => {
      const { client, base } = projectContext(flags);
      const body = defined({ name: newName, color: colorValue(flags.color) });
      requireChanges(body, '<new-name>, --color');
      const [tag] = resolveTags(await projectTags(client, base), [given]);
      const updated = await client.patch<Tag>(`${base}/tags/${encodeURIComponent(tag!.id)}`, body);
      if (flags.json) return printJson(updated);
      say(`Tag ${updated.id} is now ${updated.name}${updated.color ? ` (${updated.color})` : ''}.`);
    }),
  );

  withProject(
    tags
      .command('delete')
      .description('Delete a tag; the ideas that carry it lose it')
      .argument('<tag>', 'tag id or name'),
  ).action(
    action(async (given: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const [tag] = resolveTags(await projectTags(client, base), [given]);
      await client.delete(`${base}/tags/${encodeURIComponent(tag!.id)}`);
      if (flags.json) return printJson({ deleted: tag!.id });
      say(`Deleted tag ${tag!.name} (${tag!.id}).`);
    }),
  );
}

/** `signpost features tag <featureId> <tag...>`: the idea's tags from now on. */
export function registerFeatureTagCommand(features: Command): void {
  withProject(
    features
      .command('tag')
      .description("Set an idea's tags (replaces its current ones)")
      .argument('<featureId>', 'feature id')
      .argument('[tags...]', 'tag ids or names')
      .option('--clear', 'remove all its tags'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost features tag feat_123 Mobile "Dark mode"\n  signpost features tag feat_123 --clear',
    )
    .action(
      action(async (featureId: string, given: string[], flags: CommonFlags & { clear?: boolean }) => {
        if (given.length === 0 && !flags.clear) throw new CliError('Name at least one tag, or pass --clear');
        if (given.length > 0 && flags.clear) throw new CliError('Either name tags or pass --clear, not both');
        const { client, base } = projectContext(flags);
        const tagIds = given.length === 0 ? [] : resolveTags(await projectTags(client, base), given).map((t) => t.id);
        const result = await client.put<{ featureId: string; tags: Tag[] }>(
          `${base}/features/${encodeURIComponent(featureId)}/tags`,
          { tagIds },
        );
        if (flags.json) return printJson(result);
        say(
          result.tags.length === 0
            ? `${featureId} has no tags now.`
            : `${featureId} is tagged ${result.tags.map((t) => t.name).join(', ')}.`,
        );
      }),
    );
}
