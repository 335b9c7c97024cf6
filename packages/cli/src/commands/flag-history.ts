/**
 * `signpost site flags history <key>` (also `signpost flags history <key>`): a flag's changes,
 * newest first — who, when, which key environment, what changed, and the project's error rate
 * (events per hour) before and after each change (issue 33).
 */
import type { Command } from 'commander';
import { integer, projectContext, withProject, type CommonFlags } from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type History = Answer<'manageFlagHistory'>;
type Change = History['changes'][number];

/** What a change did, in a few words: `enabled: on → off`, or the fields it changed. */
function describe(change: Change): string {
  if (change.action === 'created') return `created (${change.newValue?.['enabled'] ? 'on' : 'off'})`;
  if (change.action === 'deleted') return 'deleted';
  return change.changedFields
    .map((field) => {
      const show = (value: unknown) => (typeof value === 'boolean' ? (value ? 'on' : 'off') : JSON.stringify(value));
      return field === 'enabled' || field === 'value'
        ? `${field}: ${show(change.oldValue?.[field])} → ${show(change.newValue?.[field])}`
        : field;
    })
    .join(', ');
}

export function registerFlagHistoryCommand(flagsCommand: Command): void {
  withProject(
    flagsCommand
      .command('history')
      .description("A flag's changes, newest first, with the error rate (events per hour) before and after each")
      .argument('<key>', 'flag key')
      .option('--limit <n>', 'changes to show (1 to 100)', integer('--limit', 1, 100), 25)
      .option('--cursor <cursor>', 'the next page (printed under a full page)'),
  ).action(
    action(async (key: string, flags: CommonFlags & { limit: number; cursor?: string }) => {
      const { client, base } = projectContext(flags);
      const query = new URLSearchParams({ limit: String(flags.limit) });
      if (flags.cursor) query.set('cursor', flags.cursor);
      const history = await client.get<History>(
        `${base}/site-config/flags/${encodeURIComponent(key)}/history?${query}`,
      );
      if (flags.json) return printJson(history);
      printTable(
        ['when', 'who', 'env', 'change', 'errors/h before', 'after'],
        history.changes.map((c) => [
          c.createdAt,
          `${c.actor.name ?? c.actor.id ?? '?'} (${c.actor.type})`,
          c.environment ?? 'all',
          describe(c),
          c.errorRate.before,
          c.errorRate.after,
        ]),
        `No changes of ${key} recorded.`,
      );
      if (history.nextCursor) say(`\nMore: --cursor ${history.nextCursor}`);
    }),
  );
}
