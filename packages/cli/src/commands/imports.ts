/**
 * `signpost import <source> <file|dir>`: another tool's export into the current project through
 * the management API (POST /projects/:id/imports). A folder (an unpacked Canny dump or Fider
 * backup, UserVoice's suggestions and comments CSVs) is zipped in memory and sent as one file.
 * `--dry-run` prints what a run would create, match and skip, and the status table in use;
 * `--map "under review=planned"` (repeatable) changes a row of that table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { Command } from 'commander';
import { zipSync } from 'fflate';
import type { Answer } from '../manage/api.ts';
import { projectContext, usageExits, withProject, type CommonFlags } from '../manage/common.ts';
import { action, CliError, EXIT } from '../manage/errors.ts';
import { printJson, printTable, say } from '../manage/output.ts';

type Report = Answer<'manageImport'>;

export const IMPORT_SOURCES = ['canny', 'canny-csv', 'uservoice', 'featurebase', 'fider', 'csv'] as const;

interface ImportFlags extends CommonFlags {
  dryRun?: boolean;
  map: string[];
  columns: string[];
  environment?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function filesOf(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesOf(path, found);
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** The bytes to send: the file itself, or the folder as a zip. */
export function exportBody(path: string): { bytes: Uint8Array; filename: string } {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new CliError(`${path} does not exist`, EXIT.usage);
  }
  if (!isDir) return { bytes: readFileSync(path), filename: basename(path) };
  const files = filesOf(path);
  if (files.length === 0) throw new CliError(`${path} is an empty folder`, EXIT.usage);
  const entries = Object.fromEntries(
    files.map((file) => [relative(path, file).split(sep).join('/'), new Uint8Array(readFileSync(file))]),
  );
  return { bytes: zipSync(entries), filename: `${basename(path)}.zip` };
}

function printReport(report: Report): void {
  say(report.dryRun ? 'Dry run: nothing was stored. A run would do this:' : 'Imported:');
  printTable(
    ['', 'created', 'updated', 'unchanged', 'matched', 'skipped'],
    [
      ['ideas', report.ideas.created, report.ideas.updated, report.ideas.unchanged, '', report.ideas.skipped],
      ['votes', report.votes.created, '', report.votes.unchanged, '', report.votes.skipped],
      [
        'comments',
        report.comments.created,
        report.comments.updated,
        report.comments.unchanged,
        '',
        report.comments.skipped,
      ],
      ['people', report.people.created, '', '', report.people.matched, ''],
      ['tags (boards, categories, labels)', report.tags.created, '', '', report.tags.matched, ''],
      ['changelog', report.changelog.created, report.changelog.updated, report.changelog.unchanged, '', ''],
    ],
  );
  if (report.ideas.truncated > 0)
    say(`${report.ideas.truncated} ideas had a title or description cut to Signpost's limits.`);
  if (report.statuses.length > 0) {
    say('\nStatuses (change one with --map "<source status>=<status|skip>"):');
    printTable(
      ['source status', 'becomes', 'by', 'ideas'],
      report.statuses.map((row) => [row.from, row.to, row.by === 'fallback' ? 'unknown: open' : row.by, row.ideas]),
    );
  }
  if (report.skippedTotal > 0) {
    say(`\nSkipped (${report.skippedTotal}):`);
    printTable(
      ['file', 'row', 'kind', 'id', 'reason'],
      report.skipped.map((row) => [row.file, row.row, row.kind, row.id, row.reason]),
    );
  }
}

export function registerImportCommands(program: Command): void {
  usageExits(
    withProject(
      program
        .command('import')
        .description(
          "Import another tool's export (ideas, votes, comments, people, boards, changelog) into the project",
        )
        .argument('<source>', `where it comes from: ${IMPORT_SOURCES.join(', ')}`)
        .argument('<path>', 'the export file, or a folder of its files')
        .option('--dry-run', 'report what would be created, matched and skipped; store nothing')
        .option('--map <entry>', 'a status table entry, "<source status>=<status|skip>" (repeatable)', collect, [])
        .option('--columns <entry>', 'csv: which column holds a field, "title=Summary" (repeatable)', collect, [])
        .option('--environment <env>', 'live (default) or test'),
    ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost import canny canny-dump.json --dry-run\n  signpost import uservoice ./uservoice-export --map "needs triage=new"\n  signpost import fider fider-backup.zip\n  signpost import csv ideas.csv --columns title=Summary --columns description=Body',
    )
    .action(
      action(async (source: string, path: string, flags: ImportFlags) => {
        if (!(IMPORT_SOURCES as readonly string[]).includes(source)) {
          throw new CliError(`Unknown source "${source}": use one of ${IMPORT_SOURCES.join(', ')}`, EXIT.usage);
        }
        const { bytes, filename } = exportBody(path);
        const { client, base } = projectContext(flags);
        const report = await client.upload<Report>(`${base}/imports`, bytes, 'application/octet-stream', {
          source,
          dryRun: flags.dryRun === true,
          filename,
          map: flags.map.length > 0 ? flags.map.join(',') : undefined,
          columns: flags.columns.length > 0 ? flags.columns.join(',') : undefined,
          environment: flags.environment,
        });
        if (flags.json) printJson(report);
        else printReport(report);
      }),
    );
}
