/**
 * `signpost board …`: a project's public board (on/off, public or private, title, logo, accent
 * colour, custom domain, anonymous votes, moderation, the SSO secret), and `signpost moderation
 * …`: the queue of held ideas and comments the team approves or rejects.
 */
import type { Command } from 'commander';
import {
  defined,
  oneOf,
  onOff,
  projectContext,
  requireChanges,
  usageExits,
  withPaging,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printPaging, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type Board = Answer<'getBoardSettings'>;

type ModerationItem = Answer<'listModerationQueue'>['items'][number];

function showBoard(board: Board): void {
  printFields([
    ['Board', board.enabled ? 'on' : 'off'],
    ['Address', board.url],
    ['Visibility', board.private ? 'private (only people signed in through your app)' : 'public'],
    ['Title', board.title ?? '(the project name)'],
    ['Logo', board.logoUrl],
    ['Accent colour', board.accentColor],
    ['Custom domain', board.customDomain],
    ['Anonymous votes', board.anonymousVotes],
    ['Moderation', board.moderation ? 'on (new ideas and comments wait for approval)' : 'off'],
    ['SSO secret', board.sso.configured ? `set (${board.sso.hint})` : 'none (signpost board rotate-secret makes one)'],
  ]);
}

/** `""` or `none` clears a text setting. */
const nullable = (value: string | undefined) =>
  value === undefined ? undefined : value === '' || value === 'none' ? null : value;

const KINDS = ['idea', 'comment'] as const;

export function registerBoardCommands(program: Command): void {
  const board = usageExits(
    program.command('board').description("A project's public board at <server>/b/<slug>: settings and the SSO secret"),
  );

  withProject(board.command('show').description("The board's settings and address")).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const settings = await client.get<Board>(`${base}/board`);
      if (flags.json) printJson(settings);
      else showBoard(settings);
    }),
  );

  withProject(
    board
      .command('set')
      .description('Change board settings; give only what changes')
      .option('--enabled <on|off>', 'the board answers at its address', onOff)
      .option('--private <on|off>', 'only people signed in through your app (SSO) see it', onOff)
      .option('--title <text>', 'shown in the header, at most 80 characters ("none": the project name)')
      .option('--logo-url <url>', 'https address of the logo ("none" removes it)')
      .option('--accent-color <hex>', 'colour as #rrggbb ("none": the default)')
      .option(
        '--custom-domain <host>',
        'a host name the board answers at, e.g. feedback.example.com ("none" removes it)',
      )
      .option('--anonymous-votes <on|off>', 'visitors vote without signing in', onOff)
      .option('--moderation <on|off>', 'new ideas and comments wait for approval', onOff),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost board set --enabled on --title "Acme ideas" --accent-color "#4f46e5"\n' +
        '  signpost board set --custom-domain feedback.acme.com --moderation on',
    )
    .action(
      action(async (flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const body = defined({
          enabled: flags['enabled'],
          private: flags['private'],
          title: nullable(flags['title']),
          logoUrl: nullable(flags['logoUrl']),
          accentColor: nullable(flags['accentColor']),
          customDomain: nullable(flags['customDomain']),
          anonymousVotes: flags['anonymousVotes'],
          moderation: flags['moderation'],
        });
        requireChanges(
          body,
          '--enabled, --private, --title, --logo-url, --accent-color, --custom-domain, --anonymous-votes, --moderation',
        );
        const settings = await client.patch<Board>(`${base}/board`, body);
        if (flags.json) printJson(settings);
        else showBoard(settings);
      }),
    );

  withProject(
    board
      .command('rotate-secret')
      .description(
        'Make a new SSO secret for signing your users in from your app (HS256 tokens); shown once, the previous one stops working',
      ),
  ).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const made = await client.post<{ secret: string; hint: string }>(`${base}/board/sso-secret`);
      if (flags.json) return printJson(made);
      say(made.secret);
      process.stderr.write(
        `New board SSO secret (${made.hint}). It is shown only now: store it in your app's settings. ` +
          'Tokens signed with the previous secret are refused from now on.\n',
      );
    }),
  );

  const moderation = usageExits(
    program
      .command('moderation')
      .description('Held ideas and comments waiting for approval (boards with moderation on)'),
  );

  withPaging(
    withProject(
      moderation
        .command('list')
        .description('The queue, oldest first')
        .option('--kind <kind>', 'idea or comment', oneOf(KINDS)),
    ),
    50,
  ).action(
    action(async (flags: CommonFlags & { kind?: string; limit?: number; offset?: number }) => {
      const { client, base } = projectContext(flags);
      const page = await client.get<{ items: ModerationItem[]; total: number; limit: number; offset: number }>(
        `${base}/moderation`,
        { kind: flags.kind, limit: flags.limit, offset: flags.offset },
      );
      if (flags.json) return printJson(page);
      printTable(
        ['kind', 'id', 'idea', 'env', 'author', 'created', 'text'],
        page.items.map((i) => [
          i.kind,
          i.id,
          i.kind === 'comment' ? `${i.featureTitle} (${i.featureId})` : i.featureTitle,
          i.environment,
          i.authorName,
          i.createdAt,
          i.body,
        ]),
        'Nothing waits for approval.',
      );
      printPaging(page.items.length, page.total, page.offset);
    }),
  );

  for (const [name, description] of [
    ['approve', 'Approve a held idea or comment: it becomes public'],
    ['reject', 'Reject a held idea (deleted with its votes and comments) or comment (deleted)'],
  ] as const) {
    withProject(
      moderation
        .command(name)
        .description(description)
        .argument('<kind>', 'idea or comment', oneOf(KINDS))
        .argument('<id>', 'the idea (feature) id or comment id, from moderation list'),
    ).action(
      action(async (kind: (typeof KINDS)[number], id: string, flags: CommonFlags) => {
        const { client, base } = projectContext(flags);
        const decided = await client.post<{ kind: string; id: string; featureId: string; decision: string }>(
          `${base}/moderation/${kind}s/${encodeURIComponent(id)}/${name}`,
        );
        if (flags.json) printJson(decided);
        else say(`${decided.decision === 'approved' ? 'Approved' : 'Rejected'} ${kind} ${id}.`);
      }),
    );
  }
}
