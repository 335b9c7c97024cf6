/**
 * Importing another tool's export into a project (issue 36), the one use case behind the
 * management API, the CLI and the dashboard:
 *
 * 1. read and validate the whole export (formats/*), streamed: the first bad row is refused as a
 *    400 naming its file, row and column, before anything is written;
 * 2. apply it in ONE transaction: each person matched by e-mail (or made), each idea matched by
 *    its source id in import_sources (updated when it changed) or created, votes and comments
 *    added once, with the source's authors and dates; what cannot be imported is skipped with a
 *    reason. The writes go through the features and people stores' import functions, which emit
 *    no domain event: no follower e-mail, no webhook for history;
 * 3. a dry run does the same and rolls the transaction back, so its report is exactly what a run
 *    would do.
 *
 * Memory: records stream from the file; a run keeps the source ids it has seen (ideas, people)
 * to tell repeated rows and to find an idea's feature for its votes.
 */
import type { Database, Queryable } from '../../db/database.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { nowIso } from '../../kernel/ids.ts';
import {
  DESCRIPTION_LENGTH,
  insertImportedComment,
  insertImportedFeature,
  insertImportedVotes,
  TITLE_LENGTH,
  updateImportedComment,
  updateImportedFeature,
  type ImportedVote,
} from '../features/index.ts';
import { recordAudit } from '../audit/index.ts';
import { importPerson } from '../people/index.ts';
import { readCanny, readCannyCsv } from './formats/canny.ts';
import { readFeaturebase } from './formats/featurebase.ts';
import { readFider } from './formats/fider.ts';
import { readGenericCsv, type GenericField } from './formats/generic.ts';
import { readUserVoice } from './formats/uservoice.ts';
import type { ImportInput } from './input.ts';
import type { ImportRecord, SourcePerson } from './records.ts';
import { StatusTable, type StatusTarget } from './statuses.ts';
import { importedTargets, type RememberedImport, rememberImports } from './store.ts';

export const IMPORT_SOURCES = ['canny', 'canny-csv', 'uservoice', 'featurebase', 'fider', 'csv'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

const COMMENT_LENGTH = 5000;
/** Votes written per statement. */
const VOTE_BATCH = 500;
/** import_sources rows written per flush (200 per statement). */
const REMEMBER_BATCH = 1000;
/** The report lists this many skipped items; the total is counted in full. */
const SKIPPED_LISTED = 200;

export interface ImportOptions {
  source: ImportSource;
  dryRun: boolean;
  environment?: KeyEnvironment | undefined;
  /** `source status=signpost status` entries over the defaults (statuses.ts). */
  statusMap?: readonly string[] | undefined;
  /** The generic CSV's column mapping: field → header. */
  columns?: Partial<Record<GenericField, string>> | undefined;
}

export interface ImportReport {
  source: ImportSource;
  dryRun: boolean;
  ideas: { created: number; updated: number; unchanged: number; skipped: number; truncated: number };
  votes: { created: number; unchanged: number; skipped: number };
  comments: { created: number; updated: number; unchanged: number; skipped: number };
  people: { created: number; matched: number };
  statuses: { from: string; to: StatusTarget; by: 'default' | 'map' | 'fallback'; ideas: number }[];
  skipped: { file: string; row: number; kind: string; id: string | null; reason: string }[];
  skippedTotal: number;
}

function records(input: ImportInput, options: ImportOptions): AsyncGenerator<ImportRecord> {
  switch (options.source) {
    case 'canny':
      return readCanny(input);
    case 'canny-csv':
      return readCannyCsv(input);
    case 'uservoice':
      return readUserVoice(input);
    case 'featurebase':
      return readFeaturebase(input);
    case 'fider':
      return readFider(input);
    case 'csv':
      return readGenericCsv(input, options.columns ?? {});
  }
}

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
      const report = await apply(tx, projectId, input, options, statuses);
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

async function apply(
  tx: Queryable,
  projectId: string,
  input: ImportInput,
  options: ImportOptions,
  statuses: StatusTable,
): Promise<ImportReport> {
  const { source } = options;
  const environment = options.environment ?? 'live';
  const report: ImportReport = {
    source,
    dryRun: options.dryRun,
    ideas: { created: 0, updated: 0, unchanged: 0, skipped: 0, truncated: 0 },
    votes: { created: 0, unchanged: 0, skipped: 0 },
    comments: { created: 0, updated: 0, unchanged: 0, skipped: 0 },
    people: { created: 0, matched: 0 },
    statuses: [],
    skipped: [],
    skippedTotal: 0,
  };
  const users = new Map<string, SourcePerson>();
  /** Person ids by the key a run knows them by (source user id or e-mail). */
  const people = new Map<string, string>();
  /** Feature ids by source idea id; null: the idea was skipped. */
  const ideas = new Map<string, string | null>();
  const ideaDates = new Map<string, string>();
  const statusRows = new Map<string, ImportReport['statuses'][number]>();
  const now = nowIso();

  // What earlier runs made, read once; the run's own new targets are remembered in batches.
  const knownIdeas = await importedTargets(tx, projectId, source, 'idea');
  const knownComments = await importedTargets(tx, projectId, source, 'comment');
  const remembered: RememberedImport[] = [];
  const remember = async (kind: 'idea' | 'comment', sourceId: string, targetId: string) => {
    (kind === 'idea' ? knownIdeas : knownComments).set(sourceId, targetId);
    remembered.push({ kind, sourceId, targetId });
    if (remembered.length >= REMEMBER_BATCH) await flushRemembered();
  };
  const flushRemembered = async () => {
    await rememberImports(tx, projectId, source, remembered);
    remembered.length = 0;
  };

  const votes: ImportedVote[] = [];
  const flushVotes = async () => {
    const added = await insertImportedVotes(tx, votes);
    report.votes.created += added;
    report.votes.unchanged += votes.length - added;
    votes.length = 0;
  };

  const skip = (record: ImportRecord, id: string | undefined, reason: string) => {
    report.skippedTotal += 1;
    if (report.skipped.length < SKIPPED_LISTED) {
      report.skipped.push({ file: record.at.file, row: record.at.row, kind: record.kind, id: id ?? null, reason });
    }
  };

  /** The person behind a source person: found by e-mail (or their source id), made otherwise. */
  const personOf = async (who: SourcePerson | undefined, seenAt: string | undefined) => {
    if (!who) return undefined;
    const known = who.id ? users.get(who.id) : undefined;
    const email = (who.email ?? known?.email)?.toLowerCase();
    const name = who.name ?? known?.name;
    const key = who.id ? `id:${who.id}` : email ? `email:${email}` : undefined;
    if (!key) return undefined;
    const voterId = `import:${source}:${who.id ?? email}`;
    let id = people.get(key);
    if (!id) {
      const person = await importPerson(tx, projectId, { email, name, voterId, seenAt });
      id = person.id;
      people.set(key, id);
      if (person.created) report.people.created += 1;
      else report.people.matched += 1;
    }
    return { id, voterId, email, name };
  };

  for await (const record of records(input, options)) {
    if (record.kind !== 'vote' && votes.length > 0) await flushVotes();
    switch (record.kind) {
      case 'user': {
        users.set(record.id, { id: record.id, email: record.email, name: record.name });
        if (record.email) await personOf({ id: record.id }, record.createdAt);
        break;
      }
      case 'idea': {
        if (ideas.has(record.id)) break; // UserVoice repeats an idea on each voter's row.
        const decision = statuses.decide(record.status);
        const row = statusRows.get(record.status) ?? {
          from: record.status,
          to: decision.status,
          by: decision.by,
          ideas: 0,
        };
        row.ideas += 1;
        statusRows.set(record.status, row);
        if (decision.status === 'skip') {
          ideas.set(record.id, null);
          report.ideas.skipped += 1;
          skip(record, record.id, `status "${record.status}" is mapped to skip`);
          break;
        }
        const createdAt = record.createdAt ?? now;
        ideaDates.set(record.id, createdAt);
        const author = await personOf(record.author, createdAt);
        const title = record.title.slice(0, TITLE_LENGTH.max);
        const description = record.description.slice(0, DESCRIPTION_LENGTH.max);
        if (title !== record.title || description !== record.description) report.ideas.truncated += 1;
        const known = knownIdeas.get(record.id);
        const outcome = known
          ? await updateImportedFeature(tx, projectId, known, { title, description, status: decision.status })
          : 'missing';
        if (known && outcome !== 'missing') {
          ideas.set(record.id, known);
          report.ideas[outcome] += 1;
          break;
        }
        const featureId = await insertImportedFeature(tx, projectId, environment, {
          title,
          description,
          type: record.type ?? 'feature',
          status: decision.status,
          contactEmail: author?.email,
          metadata: {
            importedFrom: source,
            sourceId: record.id,
            ...(record.board ? { board: record.board } : {}),
            ...(author?.name ? { author: author.name } : {}),
          },
          createdAt,
        });
        await remember('idea', record.id, featureId);
        ideas.set(record.id, featureId);
        report.ideas.created += 1;
        break;
      }
      case 'vote': {
        const featureId = ideas.get(record.ideaId);
        if (featureId === undefined) {
          report.votes.skipped += 1;
          skip(record, record.ideaId, `its idea ${record.ideaId} is not in the export`);
          break;
        }
        if (featureId === null) {
          report.votes.skipped += 1;
          break; // Its idea was skipped, and said so.
        }
        const voter = await personOf(record.voter, record.createdAt);
        if (!voter) {
          report.votes.skipped += 1;
          skip(record, record.ideaId, 'the voter has no id or e-mail');
          break;
        }
        const createdAt = record.createdAt ?? ideaDates.get(record.ideaId) ?? now;
        votes.push({ featureId, voterId: voter.voterId, createdAt });
        if (votes.length >= VOTE_BATCH) await flushVotes();
        break;
      }
      case 'comment': {
        const featureId = ideas.get(record.ideaId);
        if (!featureId) {
          report.comments.skipped += 1;
          if (featureId === undefined) skip(record, record.id, `its idea ${record.ideaId} is not in the export`);
          break;
        }
        const body = record.body.slice(0, COMMENT_LENGTH);
        const known = knownComments.get(record.id);
        const outcome = known ? await updateImportedComment(tx, featureId, known, body) : 'missing';
        if (outcome !== 'missing') {
          report.comments[outcome] += 1;
          break;
        }
        const author = await personOf(record.author, record.createdAt);
        const commentId = await insertImportedComment(tx, featureId, {
          body,
          authorName: author?.name ?? author?.email?.split('@')[0],
          createdAt: record.createdAt ?? ideaDates.get(record.ideaId) ?? now,
          internal: record.internal === true,
        });
        await remember('comment', record.id, commentId);
        report.comments.created += 1;
        break;
      }
    }
  }
  await flushVotes();
  await flushRemembered();
  report.statuses = [...statusRows.values()].sort((a, b) => b.ideas - a.ideas || a.from.localeCompare(b.from));
  return report;
}
