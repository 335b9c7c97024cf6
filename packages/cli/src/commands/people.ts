/**
 * `signpost people …`: a project's end users, and a person's data (GDPR articles 15 and 17):
 * everything held about them as one JSON document, and their erasure; merging a duplicate
 * person into another.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Answer } from '../manage/api.ts';
import { oneOf, projectContext, usageExits, withProject, type CommonFlags } from '../manage/common.ts';
import { action, CliError } from '../manage/errors.ts';
import { printFields, printJson, printTable, say } from '../manage/output.ts';

type PeoplePage = Answer<'manageListPeople'>;
type PersonExport = Answer<'manageExportPerson'>;
type Erasure = Answer<'manageErasePerson'>;
type Merge = Answer<'manageMergePerson'>;
type PeopleSettings = Answer<'manageGetPeopleSettings'>;

const person = (id: string) => `/people/${encodeURIComponent(id)}`;

export function registerPeopleCommands(program: Command): void {
  const people = usageExits(program.command('people').description("A project's people, and a person's data"));

  withProject(
    people
      .command('list')
      .description('People, most recently seen first')
      .option('--search <text>', 'part of the name, e-mail address or company name'),
  ).action(
    action(async (flags: CommonFlags & { search?: string }) => {
      const { client, base } = projectContext(flags);
      const query = flags.search ? `?q=${encodeURIComponent(flags.search)}` : '';
      const page = await client.get<PeoplePage>(`${base}/people${query}`);
      if (flags.json) return printJson(page);
      printTable(
        ['id', 'name', 'email', 'last seen'],
        page.people.map((p) => [p.id, p.name ?? '', p.email ?? '', p.lastSeenAt]),
        'No people.',
      );
    }),
  );

  withProject(
    people
      .command('export')
      .description('Everything held about one person, as JSON (GDPR article 15; admin)')
      .argument('<personId>', 'the person (see `signpost people list`)')
      .option('--out <file>', 'write the JSON to this file instead of printing it'),
  ).action(
    action(async (personId: string, flags: CommonFlags & { out?: string }) => {
      const { client, base } = projectContext(flags);
      const data = await client.post<PersonExport>(`${base}${person(personId)}/export`, {});
      if (!flags.out) return printJson(data);
      writeFileSync(flags.out, `${JSON.stringify(data, null, 2)}\n`);
      say(
        `Wrote ${flags.out}: ${data.ideas.length} ideas, ${data.votes.length} votes, ${data.comments.length} comments, ${data.emails.length} e-mails.`,
      );
    }),
  );

  withProject(
    people
      .command('erase')
      .description(
        "Erase one person (GDPR article 17; admin): personal data removed, ideas and comments anonymised or deleted by the project's setting, counts kept. Cannot be undone.",
      )
      .argument('<personId>', 'the person (see `signpost people list`)')
      .option('--yes', 'confirm: erase without asking'),
  ).action(
    action(async (personId: string, flags: CommonFlags & { yes?: boolean }) => {
      if (!flags.yes) throw new CliError(`Erasing ${personId} cannot be undone; run again with --yes to confirm.`);
      const { client, base } = projectContext(flags);
      const result = await client.post<Erasure>(`${base}${person(personId)}/erase`, {});
      if (flags.json) return printJson(result);
      say(`Erased ${personId} (their content: ${result.content === 'delete' ? 'deleted' : 'anonymised'}).`);
      printFields([
        ['ideas', result.ideas],
        ['comments', result.comments],
        ['votes kept', result.votes],
        ['follows', result.follows],
        ['e-mails', result.emails],
        ['error events', result.errorEvents],
        ['sessions', result.sessions],
      ]);
    }),
  );

  withProject(
    people
      .command('merge')
      .description(
        'Merge a duplicate person into another (admin): their votes (one per idea kept), comments, ideas, aliases and company go to the person kept',
      )
      .argument('<from>', 'the duplicate person, who goes (see `signpost people list`)')
      .argument('<into>', 'the person kept'),
  ).action(
    action(async (from: string, into: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.post<Merge>(`${base}${person(from)}/merge`, { into });
      if (flags.json) return printJson(result);
      const kept = result.person.name ?? result.person.email ?? result.person.id;
      say(
        result.merged
          ? `Merged ${from} into ${kept} (${result.person.id}); ${result.votesDropped} duplicate vote(s) removed.`
          : `${from} was already merged into ${kept} (${result.person.id}); nothing changed.`,
      );
    }),
  );

  withProject(
    people
      .command('erase-setting')
      .description('Show or set what erasing a person does with their ideas and comments (setting it: admin)')
      .argument('[mode]', 'anonymise or delete', oneOf(['anonymise', 'delete'] as const)),
  ).action(
    action(async (mode: 'anonymise' | 'delete' | undefined, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const settings =
        mode === undefined
          ? await client.get<PeopleSettings>(`${base}/people-settings`)
          : await client.put<PeopleSettings>(`${base}/people-settings`, { eraseContent: mode });
      if (flags.json) return printJson(settings);
      say(
        `Erasing a person ${settings.eraseContent === 'delete' ? 'deletes' : 'anonymises'} their ideas and comments.`,
      );
    }),
  );
}
