/**
 * An import's apply phase (issue 36, step 2 of service.ts): the validated export's records, in
 * order, written in the caller's transaction. People, ideas, comments, votes, tags and the
 * import_sources rows wait in batches and go as multi-row statements; what earlier runs made is
 * read once as digests, so a second run writes only what changed. Answers the run's report.
 */
import type { Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import {
  DESCRIPTION_LENGTH,
  importDigest,
  importedCommentDigests,
  importedFeatureDigests,
  insertImportedComments,
  insertImportedFeatures,
  insertImportedVotes,
  newImportedCommentId,
  newImportedFeatureId,
  TITLE_LENGTH,
  updateImportedComment,
  updateImportedFeature,
  type ImportedComment,
  type ImportedFeature,
  type ImportedVote,
} from '../features/index.ts';
import {
  insertImportedEntry,
  sanitizeDescription,
  updateImportedEntry,
  type ImportedEntry,
} from '../changelog/index.ts';
import { importPeople, type ImportedPerson } from '../people/index.ts';
import { addImportedFeatureTags, importTag, TAG_NAME_MAX, TAGS_PER_FEATURE_MAX } from '../tags/index.ts';
import type { ImportInput } from './input.ts';
import type { ImportRecord, SourcePerson } from './records.ts';
import { type ImportOptions, type ImportSource, records } from './sources.ts';
import type { StatusTable, StatusTarget } from './statuses.ts';
import { importedTargets, type RememberedImport, rememberImports } from './store.ts';
import { compareNames } from '../../kernel/compare-text.ts';

const COMMENT_LENGTH = 5000;
/** A changelog entry's summary at most (the changelog API's limit). */
const ENTRY_SUMMARY_LENGTH = 200;
/** Idea–tag pairs written per flush. */
const TAG_BATCH = 600;
/** Votes written per statement. */
const VOTE_BATCH = 500;
/** New ideas and comments written per flush (multi-row INSERTs, in the one transaction). */
const ROW_BATCH = 500;
/** import_sources rows written per flush (200 per statement). */
const REMEMBER_BATCH = 1000;
/** People matched or made per flush (a few statements each, whatever the count). */
const PEOPLE_BATCH = 500;
/** The report lists this many skipped items; the total is counted in full. */
const SKIPPED_LISTED = 200;

export interface ImportReport {
  source: ImportSource;
  dryRun: boolean;
  ideas: { created: number; updated: number; unchanged: number; skipped: number; truncated: number };
  votes: { created: number; unchanged: number; skipped: number };
  comments: { created: number; updated: number; unchanged: number; skipped: number };
  people: { created: number; matched: number };
  /** The source's boards, categories and tags as tags of the project: made, or found by name. */
  tags: { created: number; matched: number };
  changelog: { created: number; updated: number; unchanged: number };
  statuses: { from: string; to: StatusTarget; by: 'default' | 'map' | 'fallback'; ideas: number }[];
  skipped: { file: string; row: number; kind: string; id: string | null; reason: string }[];
  skippedTotal: number;
}

const privateTagReason = (name: string) => `"${name}" is a private tag there; tags here are public, so it is left out`;

export async function applyImport(
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
    tags: { created: 0, matched: 0 },
    changelog: { created: 0, updated: 0, unchanged: 0 },
    statuses: [],
    skipped: [],
    skippedTotal: 0,
  };
  const users = new Map<string, SourcePerson>();
  /** The keys a run knows its people by (source user id or e-mail), once each is queued. */
  const people = new Set<string>();
  /** Feature ids by source idea id; null: the idea was skipped. */
  const ideas = new Map<string, string | null>();
  const ideaDates = new Map<string, string>();
  const statusRows = new Map<string, ImportReport['statuses'][number]>();
  const now = nowIso();

  // What earlier runs made, read once; the run's own new targets are remembered in batches.
  const knownIdeas = await importedTargets(tx, projectId, source, 'idea');
  const knownComments = await importedTargets(tx, projectId, source, 'comment');
  const knownEntries = await importedTargets(tx, projectId, source, 'entry');
  // And how those ideas and comments read now (a digest each), so a second run reads none of them
  // one by one: an unchanged one costs no statement, a changed one its UPDATE, a deleted one
  // (absent here) is imported anew.
  const ideaDigests = await importedFeatureDigests(tx, projectId, [...knownIdeas.values()]);
  const commentDigests = await importedCommentDigests(tx, [...knownComments.values()]);
  const remembered: RememberedImport[] = [];
  const remember = async (kind: 'idea' | 'comment' | 'entry', sourceId: string, targetId: string) => {
    (kind === 'idea' ? knownIdeas : kind === 'comment' ? knownComments : knownEntries).set(sourceId, targetId);
    remembered.push({ kind, sourceId, targetId });
    if (remembered.length >= REMEMBER_BATCH) await flushRemembered();
  };
  const flushRemembered = async () => {
    await rememberImports(tx, projectId, source, remembered);
    remembered.length = 0;
  };

  // New ideas and comments wait here and are written many per statement; whatever needs their
  // rows (votes, comments, tags, entries' links: foreign keys) flushes them first.
  const newIdeas: (ImportedFeature & { id: string })[] = [];
  const flushIdeas = async () => {
    if (newIdeas.length === 0) return;
    await insertImportedFeatures(tx, projectId, environment, newIdeas);
    newIdeas.length = 0;
  };
  const newComments: (ImportedComment & { id: string; featureId: string })[] = [];
  const flushComments = async () => {
    if (newComments.length === 0) return;
    await flushIdeas();
    await insertImportedComments(tx, newComments);
    newComments.length = 0;
  };

  // People wait here too: what a record needs of its author or voter (e-mail, name, voter id) is
  // known without their row, and the report counts them when they are written.
  const newPeople: ImportedPerson[] = [];
  const flushPeople = async () => {
    if (newPeople.length === 0) return;
    for (const person of await importPeople(tx, projectId, newPeople)) {
      report.people[person.created ? 'created' : 'matched'] += 1;
    }
    newPeople.length = 0;
  };

  const votes: ImportedVote[] = [];
  const flushVotes = async () => {
    await flushIdeas();
    await flushPeople(); // A vote's value counts its voter's company: the voter's alias must be there.
    const added = await insertImportedVotes(tx, votes);
    report.votes.created += added;
    report.votes.unchanged += votes.length - added;
    votes.length = 0;
  };

  /** Board (and Fider tag) names by source id (null: a private tag, left out); tag ids by name. */
  const boardNames = new Map<string, string | null>();
  const tags = new Map<string, string>();
  const tagOf = async (name: string, color?: string) => {
    const key = name.slice(0, TAG_NAME_MAX).trim();
    let id = tags.get(key);
    if (!id) {
      const tag = await importTag(tx, projectId, key, color);
      id = tag.id;
      tags.set(key, id);
      report.tags[tag.created ? 'created' : 'matched'] += 1;
    }
    return id;
  };
  const tagged: { featureId: string; tagId: string }[] = [];
  /** How many tags this run gave each idea, to stay within what an idea may carry. */
  const tagCounts = new Map<string, number>();
  const flushTags = async () => {
    await flushIdeas();
    await addImportedFeatureTags(tx, tagged);
    tagged.length = 0;
  };
  /** Gives an idea a tag by name; false when the idea already has as many as it may carry. */
  const tagFeature = async (featureId: string, name: string, color?: string) => {
    const count = tagCounts.get(featureId) ?? 0;
    if (count >= TAGS_PER_FEATURE_MAX) return false;
    tagCounts.set(featureId, count + 1);
    tagged.push({ featureId, tagId: await tagOf(name, color) });
    if (tagged.length >= TAG_BATCH) await flushTags();
    return true;
  };
  /** The board an idea is filed under, by name (a board record of its id names it, else the idea itself). */
  const boardOf = (record: Extract<ImportRecord, { kind: 'idea' }>) =>
    (record.boardId ? boardNames.get(record.boardId) : undefined) ?? record.board;
  /** The private tags already said to be left out: once per tag, not once per idea that has it. */
  const privateTags = new Set<string>();
  const tagIdea = async (record: Extract<ImportRecord, { kind: 'idea' }>, featureId: string) => {
    const given = new Set<string>();
    const give = async (name: string, color?: string) => {
      const key = name.slice(0, TAG_NAME_MAX).trim();
      if (given.has(key)) return true; // The board's name again as a tag: one tag.
      given.add(key);
      return tagFeature(featureId, name, color);
    };
    for (const name of [boardOf(record), record.category]) if (name) await give(name);
    for (const tag of record.tags ?? []) {
      if (tag.private) {
        // Tags here show on the public board; a label only the source's team saw stays out of it.
        if (!privateTags.has(tag.name)) skip(record, record.id, privateTagReason(tag.name));
        privateTags.add(tag.name);
      } else if (!(await give(tag.name, tag.color))) {
        skip(
          record,
          record.id,
          `its tag "${tag.name}" is left out: the idea has ${TAGS_PER_FEATURE_MAX} tags, the most one carries`,
        );
      }
    }
  };

  const skip = (record: ImportRecord, id: string | undefined, reason: string) => {
    report.skippedTotal += 1;
    if (report.skipped.length < SKIPPED_LISTED) {
      report.skipped.push({ file: record.at.file, row: record.at.row, kind: record.kind, id: id ?? null, reason });
    }
  };

  /**
   * The person behind a source person: found by e-mail (or their source id), made otherwise, in
   * the next batch of people (importPeople keeps the order, so the outcome is the same).
   */
  const personOf = async (who: SourcePerson | undefined, seenAt: string | undefined) => {
    if (!who) return undefined;
    const known = who.id ? users.get(who.id) : undefined;
    const email = (who.email ?? known?.email)?.toLowerCase();
    const name = who.name ?? known?.name;
    const key = who.id ? `id:${who.id}` : email ? `email:${email}` : undefined;
    if (!key) return undefined;
    const voterId = `import:${source}:${who.id ?? email}`;
    if (!people.has(key)) {
      people.add(key);
      newPeople.push({ email, name, voterId, seenAt });
      if (newPeople.length >= PEOPLE_BATCH) await flushPeople();
    }
    return { voterId, email, name };
  };

  for await (const record of records(input, options)) {
    if (record.kind !== 'vote' && votes.length > 0) await flushVotes();
    switch (record.kind) {
      case 'board': {
        if (record.private) {
          // Tags here show on the public board; a label only the source's team saw stays out of it.
          boardNames.set(record.id, null);
          skip(record, record.id, privateTagReason(record.name));
          break;
        }
        boardNames.set(record.id, record.name);
        await tagOf(record.name, record.color);
        break;
      }
      case 'idea-tag': {
        const featureId = ideas.get(record.ideaId);
        const name = boardNames.get(record.boardId);
        if (featureId === null || name === null) break; // Its idea or its private tag was skipped, and said so.
        if (featureId === undefined) skip(record, record.ideaId, `its idea ${record.ideaId} is not in the export`);
        else if (name === undefined) skip(record, record.ideaId, `its tag ${record.boardId} is not in the export`);
        else if (!(await tagFeature(featureId, name)))
          skip(record, record.ideaId, `the idea has ${TAGS_PER_FEATURE_MAX} tags, the most one carries`);
        break;
      }
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
        const digest = known ? ideaDigests.get(known) : undefined;
        const outcome =
          known === undefined || digest === undefined
            ? 'missing'
            : digest === importDigest(title, description, decision.status)
              ? 'unchanged'
              : await updateImportedFeature(tx, projectId, known, { title, description, status: decision.status });
        if (known && outcome !== 'missing') {
          ideas.set(record.id, known);
          report.ideas[outcome] += 1;
          await tagIdea(record, known);
          break;
        }
        const featureId = newImportedFeatureId();
        newIdeas.push({
          id: featureId,
          title,
          description,
          type: record.type ?? 'feature',
          status: decision.status,
          contactEmail: author?.email,
          metadata: {
            importedFrom: source,
            sourceId: record.id,
            ...(boardOf(record) ? { board: boardOf(record) } : {}),
            ...(record.category ? { category: record.category } : {}),
            ...(author?.name ? { author: author.name } : {}),
          },
          createdAt,
        });
        if (newIdeas.length >= ROW_BATCH) await flushIdeas();
        await remember('idea', record.id, featureId);
        ideas.set(record.id, featureId);
        report.ideas.created += 1;
        await tagIdea(record, featureId);
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
        const stored = known ? commentDigests.get(known) : undefined;
        const outcome =
          known === undefined || stored?.featureId !== featureId
            ? 'missing'
            : stored.digest === importDigest(body)
              ? 'unchanged'
              : await updateImportedComment(tx, featureId, known, body);
        if (outcome !== 'missing') {
          report.comments[outcome] += 1;
          break;
        }
        const author = await personOf(record.author, record.createdAt);
        const commentId = newImportedCommentId();
        newComments.push({
          id: commentId,
          featureId,
          body,
          authorName: author?.name ?? author?.email?.split('@')[0],
          createdAt: record.createdAt ?? ideaDates.get(record.ideaId) ?? now,
          internal: record.internal === true,
        });
        if (newComments.length >= ROW_BATCH) await flushComments();
        await remember('comment', record.id, commentId);
        report.comments.created += 1;
        break;
      }
      case 'entry': {
        const featureIds: string[] = [];
        for (const ideaId of record.ideaIds) {
          const featureId = ideas.get(ideaId) ?? knownIdeas.get(ideaId);
          if (featureId) featureIds.push(featureId);
          else skip(record, record.id, `its link to idea ${ideaId} is left out: the idea is not imported`);
        }
        const createdAt = record.createdAt ?? record.publishedAt ?? now;
        const entry: ImportedEntry = {
          summary: record.title.slice(0, ENTRY_SUMMARY_LENGTH),
          description: sanitizeDescription(record.description),
          statusKey: record.statusKey,
          featureIds,
          published: record.published,
          createdAt,
          publishedAt: record.published ? (record.publishedAt ?? createdAt) : null,
          // A schedule still ahead is kept (the schedule worker publishes it then); a past one is not.
          publishAt: !record.published && record.scheduledFor && record.scheduledFor > now ? record.scheduledFor : null,
        };
        await flushIdeas(); // Its links name the ideas' rows.
        const known = knownEntries.get(record.id);
        const outcome = known ? await updateImportedEntry(tx, projectId, known, entry) : 'missing';
        if (outcome !== 'missing') {
          report.changelog[outcome] += 1;
          break;
        }
        await remember('entry', record.id, await insertImportedEntry(tx, projectId, entry));
        report.changelog.created += 1;
        break;
      }
    }
  }
  await flushPeople();
  await flushIdeas();
  await flushComments();
  await flushTags();
  await flushVotes();
  await flushRemembered();
  report.statuses = [...statusRows.values()].sort((a, b) => b.ideas - a.ideas || compareNames(a.from, b.from));
  return report;
}
