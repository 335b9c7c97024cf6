/** `signpost bugs|errors|logs …`: reports as a team triages them: filtered lists, the full record, resolve/ignore/reopen. */
import type { Command } from 'commander';
import {
  integer,
  list,
  oneOf,
  projectContext,
  usageExits,
  withPaging,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printPaging, printTable, say } from '../manage/output.ts';

interface Kind {
  name: 'bugs' | 'errors' | 'logs';
  singular: string;
  grade: 'severity' | 'level';
  grades: readonly string[];
}

const KINDS: Kind[] = [
  { name: 'bugs', singular: 'bug report', grade: 'severity', grades: ['low', 'medium', 'high', 'critical'] },
  { name: 'errors', singular: 'error report', grade: 'severity', grades: ['low', 'medium', 'high', 'critical'] },
  { name: 'logs', singular: 'log group', grade: 'level', grades: ['error', 'warn', 'info', 'debug', 'trace'] },
];

type Report = Record<string, any>;

function registerKind(program: Command, kind: Kind): void {
  const command = usageExits(
    program
      .command(kind.name)
      .description(`${kind.singular[0]!.toUpperCase()}${kind.singular.slice(1)}s: list, show, resolve, ignore`),
  );
  if (kind.name === 'logs') registerLogLines(command);

  withPaging(
    withProject(command.command('list').description(`${kind.singular}s, most recently seen first`))
      .option('--status <status>', 'open, resolved or ignored', oneOf(['open', 'resolved', 'ignored'] as const))
      .option(`--${kind.grade} <list>`, `comma-separated: ${kind.grades.join(', ')}`, list)
      .option('--env <env>', 'live or test key reports', oneOf(['live', 'test'] as const))
      .option('--since <iso>', 'seen at or after this time')
      .option('--until <iso>', 'first seen before this time')
      .option('--search <text>', 'text in titles, messages, stack traces')
      .option(
        '--sort <order>',
        'lastSeen, firstSeen or occurrences',
        oneOf(['lastSeen', 'firstSeen', 'occurrences'] as const),
      ),
    50,
  ).action(
    action(async (flags: CommonFlags & Record<string, any>) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<Record<string, any>>(`${base}/${kind.name}`, {
        status: flags['status'],
        [kind.grade]: (flags[kind.grade] as string[] | undefined)?.join(','),
        environment: flags['env'],
        since: flags['since'],
        until: flags['until'],
        q: flags['search'],
        sort: flags['sort'],
        limit: flags['limit'],
        offset: flags['offset'],
      });
      if (flags.json) return printJson(result);
      const rows = result[kind.name] as Report[];
      printTable(
        ['id', kind.grade, 'status', 'count', 'last seen', kind.name === 'logs' ? 'message' : 'title'],
        rows.map((r) => [
          r['id'],
          r[kind.grade],
          r['status'],
          r['occurrences'],
          r['lastSeenAt'],
          kind.name === 'logs' ? r['message'] : r['title'],
        ]),
        `No ${kind.singular}s.`,
      );
      printPaging(rows.length, result['total'], result['offset']);
      const counts = result['counts'] as Record<string, number>;
      say(`open ${counts['open']}, resolved ${counts['resolved']}, ignored ${counts['ignored']}`);
    }),
  );

  withProject(command.command('show').description(`The full ${kind.singular}`).argument('<id>', 'id')).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const report = await client.get<Report>(`${base}/${kind.name}/${encodeURIComponent(id)}`);
      if (flags.json) return printJson(report);
      const { stackTrace, breadcrumbs, ...rest } = report;
      printFields(
        Object.entries(rest).map(([name, value]): [string, string] => [
          name,
          typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '-'),
        ]),
      );
      if (Array.isArray(breadcrumbs) && breadcrumbs.length > 0) {
        say('\nBreadcrumbs:');
        printTable(
          ['time', 'type', 'message'],
          breadcrumbs.map((b: Report) => [b['timestamp'], b['type'], b['message']]),
        );
      }
      if (stackTrace) say(`\n${stackTrace}`);
    }),
  );

  for (const [action_, status] of [
    ['resolve', 'resolved'],
    ['ignore', 'ignored'],
    ['reopen', 'open'],
  ] as const) {
    withProject(
      command.command(action_).description(`Mark a ${kind.singular} ${status}`).argument('<id>', 'id'),
    ).action(
      action(async (id: string, flags: CommonFlags) => {
        const { client, base } = projectContext(flags);
        const report = await client.patch<Report>(`${base}/${kind.name}/${encodeURIComponent(id)}`, { status });
        if (flags.json) printJson(report);
        else say(`${id} is ${report['status']}.`);
      }),
    );
  }
}

/** Pages `logs lines` reads on by itself while a search has found nothing (about 500,000 lines). */
const SEARCH_PAGES = 50;

/** `signpost logs lines`: the lines under the groups, newest first, with their fields (issue 32). */
function registerLogLines(logs: Command): void {
  withProject(logs.command('lines').description('Log lines, newest first, with their data fields'))
    .option('--group <id>', "one log group's lines")
    .option('--level <list>', 'comma-separated: error, warn, info, debug, trace', list)
    .option('--search <text>', 'text, and field filters: data.orderId = 42, data.path = /api/*, has:data.orderId')
    .option('--source <source>', "the line's source")
    .option('--app-version <version>', "the line's app version")
    .option('--user <id>', "the line's user id")
    .option('--from <iso>', 'lines at or after this time')
    .option('--to <iso>', 'lines before this time')
    .option('--limit <n>', 'lines per page (default 100, at most 500)', integer('--limit', 1, 500))
    .option(
      '--cursor <cursor>',
      'the next page: the cursor a previous page printed (a search that finds nothing reads on by itself, up to 50 pages)',
    )
    .action(
      action(async (flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const page = (cursor: string | undefined) =>
          client.get<Record<string, any>>(`${base}/logs/lines`, {
            groupId: flags['group'],
            level: (flags['level'] as string[] | undefined)?.join(','),
            q: flags['search'],
            source: flags['source'],
            appVersion: flags['appVersion'],
            userId: flags['user'],
            from: flags['from'],
            to: flags['to'],
            limit: flags['limit'],
            cursor,
          });
        // A search reads a window of lines a page (10,000 on SQLite) and may find none in it while
        // older lines match: it reads on by itself, as the dashboard does, up to SEARCH_PAGES.
        let result = await page(flags['cursor']);
        for (let read = 1; read < SEARCH_PAGES && result['lines'].length === 0 && result['nextCursor']; read++)
          result = await page(result['nextCursor']);
        if (flags.json) return printJson(result);
        const lines = result['lines'] as Report[];
        printTable(
          ['time', 'level', 'source', 'message', 'data'],
          lines.map((l) => [
            l['timestamp'],
            l['severity'] ?? l['level'],
            l['source'] ?? '-',
            l['message'],
            l['data'] === null ? '-' : JSON.stringify(l['data']),
          ]),
          'No log lines.',
        );
        if (result['nextCursor']) say(`more: --cursor ${result['nextCursor']}`);
      }),
    );
}

export function registerReportCommands(program: Command): void {
  for (const kind of KINDS) registerKind(program, kind);
}
