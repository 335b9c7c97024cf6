/**
 * Importing another tool's export into a project (issue 36), the one use case behind the
 * management API, the CLI and the dashboard:
 *
 * 1. read and validate the whole export (formats/*, by source: sources.ts), streamed: the first
 *    bad row is refused as a 400 naming its file, row and column, before anything is written;
 * 2. apply it in ONE transaction (apply.ts): each person matched by e-mail (or made), each idea
 *    matched by its source id in import_sources (updated when it changed) or created, votes and comments
 *    added once, with the source's authors and dates; a source's boards, categories and tags
 *    (Canny's boards and categories, UserVoice's forums, categories and labels, Featurebase's
 *    categories and post tags, Fider's tags) become tags (found by name, else made) that its
 *    ideas carry, at most TAGS_PER_FEATURE_MAX per idea, a tag private there left out; its
 *    changelog entries become changelog entries
 *    (published or draft, dates and linked ideas kept, matched by source id too); what cannot
 *    be imported is skipped with a reason. The writes go through the features and people stores' import functions, which emit
 *    no domain event: no follower e-mail, no webhook for history;
 * 3. a dry run does the same and rolls the transaction back, so its report is exactly what a run
 *    would do.
 *
 * Round trips: on PostgreSQL each statement is one. The scale test's 10,000 ideas (2,000 people,
 * 30,000 votes, 5,000 comments) took 28,448 statements, and a second run 25,099, while people,
 * ideas' values and a second run's comparisons went a row at a time; now 488 and 141. Every
 * kind is written in batches: at most 500 new ideas, comments, votes and people wait in memory
 * and go as multi-row statements (people: importPeople, a few statements per batch); the ideas
 * and comments earlier runs made are read once at the start as a digest each, so a second run
 * writes only what changed.
 *
 * Memory: records stream from the file; a run keeps the source ids it has seen (ideas, people)
 * to tell repeated rows and to find an idea's feature for its votes, a digest per item earlier
 * runs made, and the batches above.
 */
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../audit/index.ts';
import { applyImport, type ImportReport } from './apply.ts';
import type { ImportInput } from './input.ts';
import { type ImportOptions, records } from './sources.ts';
import { StatusTable } from './statuses.ts';

export { IMPORT_SOURCES, type ImportOptions, type ImportSource } from './sources.ts';
export type { ImportReport } from './apply.ts';

/** Thrown to roll a dry run's transaction back; carries its report out. */
class DryRunDone extends Error {
  readonly report: ImportReport;
  constructor(report: ImportReport) {
    super('dry run');
    this.report = report;
  }
}

export async function runImport(
  db: Database,
  projectId: string,
  input: ImportInput,
  options: ImportOptions,
): Promise<ImportReport> {
  const statuses = new StatusTable(options.statusMap);
  // Pass 1: the whole export must read; a bad row ends here, nothing written.
  for await (const _record of records(input, options)) {
    // Reading validates: the formats throw ImportRowError on the first bad row.
  }
  try {
    return await db.transaction(async (tx) => {
      const report = await applyImport(tx, projectId, input, options, statuses);
      if (options.dryRun) throw new DryRunDone(report);
      const { skipped: _reasons, ...counts } = report;
      await recordAudit(tx, {
        projectId,
        action: 'import.completed',
        target: { type: 'import', id: options.source },
        before: null,
        after: counts,
      });
      return report;
    });
  } catch (error) {
    if (error instanceof DryRunDone) return error.report;
    throw error;
  }
}
