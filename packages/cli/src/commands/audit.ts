/**
 * `signpost audit`: who did what in a project (admins only, as on the server). A table of the
 * newest entries by default; `--format csv` or `--format jsonl` streams the server's export (every
 * matching entry) to stdout, for a file or a pipe.
 */
import { type Command, InvalidArgumentError } from 'commander';
import { integer, oneOf, projectContext, usageExits, withProject, type CommonFlags } from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printJson, printTable } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type Entry = Answer<'listAuditEntries'>['entries'][number];

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since 7d`, `24h`, `30m`, or a date/time; sent as an ISO timestamp. */
export function timeArg(raw: string): string {
  const relative = /^(\d{1,5})([mhd])$/.exec(raw.trim());
  if (relative) return new Date(Date.now() - Number(relative[1]) * UNITS[relative[2]!]!).toISOString();
  const time = Date.parse(raw);
  if (Number.isNaN(time))
    throw new InvalidArgumentError('Use a duration like 30m, 24h or 7d, or a date like 2026-11-01');
  return new Date(time).toISOString();
}

interface AuditFlags extends CommonFlags {
  since?: string;
  until?: string;
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  format?: 'table' | 'csv' | 'jsonl';
  limit?: number;
}

/** A before → after summary of the fields that changed, short enough for a table cell. */
function change(entry: Entry): string {
  const was = (entry.before ?? {}) as Record<string, unknown>;
  const is = (entry.after ?? {}) as Record<string, unknown>;
  if (entry.before === null) return 'created';
  if (entry.after === null) return 'deleted';
  const names = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter(
    (name) => JSON.stringify(was[name]) !== JSON.stringify(is[name]),
  );
  const text = names.map((name) => `${name}: ${JSON.stringify(was[name])} → ${JSON.stringify(is[name])}`).join('; ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export function registerAuditCommands(program: Command): void {
  usageExits(
    withProject(
      program
        .command('audit')
        .description('Who did what in the project, newest first (team admins and owners)')
        .option('--since <time>', 'entries at or after: a duration back (30m, 24h, 7d) or a date/time', timeArg)
        .option('--until <time>', 'entries before: a duration back or a date/time', timeArg)
        .option('--actor <who>', 'an account’s e-mail or id, or a key id')
        .option('--action <action>', 'one action, e.g. flag.updated, api_key.revoked, feature.status_changed')
        .option('--target-type <type>', 'e.g. feature, flag, api_key, member, project')
        .option('--target-id <id>', 'one target')
        .option(
          '--format <format>',
          'table (default), csv or jsonl (every matching entry, streamed)',
          oneOf(['table', 'csv', 'jsonl'] as const),
        )
        .option('--limit <n>', 'table: at most this many entries (default 50)', integer('--limit', 1, 10_000)),
    ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost audit --since 7d\n  signpost audit --action api_key.revoked\n  signpost audit --since 2026-11-01 --format csv > audit.csv',
    )
    .action(
      action(async (flags: AuditFlags) => {
        const { client, base } = projectContext(flags);
        const filters = {
          actor: flags.actor,
          action: flags.action,
          targetType: flags.targetType,
          targetId: flags.targetId,
          since: flags.since,
          until: flags.until,
        };
        if (flags.format === 'csv' || flags.format === 'jsonl') {
          await client.download(`${base}/audit/export`, { ...filters, format: flags.format }, process.stdout);
          return;
        }
        const wanted = flags.limit ?? 50;
        const entries: Entry[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.get<Answer<'listAuditEntries'>>(`${base}/audit`, {
            ...filters,
            limit: Math.min(200, wanted - entries.length),
            cursor,
          });
          entries.push(...page.entries);
          cursor = page.nextCursor ?? undefined;
        } while (cursor && entries.length < wanted);
        if (flags.json) return printJson({ entries });
        printTable(
          ['at', 'who', 'via', 'action', 'target', 'change'],
          entries.map((entry) => [
            entry.at,
            entry.actor.label,
            entry.actor.via,
            entry.action,
            `${entry.target.type}${entry.target.id ? ` ${entry.target.id}` : ''}`,
            change(entry),
          ]),
          'No audit entries.',
        );
      }),
    );
}
