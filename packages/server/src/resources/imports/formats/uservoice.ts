/**
 * UserVoice's CSV export of suggestions: one row per idea and voter (the idea's columns repeated
 * on each of its voters' rows): `ideaId`, `ideaTitle`, `ideaDescription`, `ideaCreatorEmailAddress`,
 * `ideaCreatorName`, `forumName`, `categoryName` (the forum and its category become tags), `labels`
 * (the idea's labels, comma-separated: a tag each),
 * `publicStatusName`, `createdTimestamp` (`2025-07-21 03:37:03`, UTC), and the voter's `userEmailAddress`, `userName`. A directory or zip may add the comments
 * export (a CSV whose name has "comment": `suggestionId`, `text`, `userEmail`, `userName`,
 * `createdAt`).
 */
import { basename } from 'node:path';
import { csvRows, pick } from '../csv.ts';
import type { ImportInput } from '../input.ts';
import { date, ImportRowError, nameList, person, type ImportRecord } from '../records.ts';

export async function* readUserVoice(input: ImportInput): AsyncGenerator<ImportRecord> {
  const csvs = input.names.filter((name) => /\.csv$/i.test(name) || input.names.length === 1);
  const comments = csvs.filter((name) => /comment/i.test(basename(name)));
  const suggestions = csvs.filter((name) => !comments.includes(name));
  if (suggestions.length === 0) throw new ImportRowError({ file: '(export)', row: 0 }, '(file)', 'no suggestions CSV');
  for (const file of suggestions) {
    for await (const { at, row } of csvRows(input.open(file), file)) {
      const id = pick(row, 'ideaid', 'id');
      if (!id) throw new ImportRowError(at, 'ideaId', 'is missing or empty');
      const title = pick(row, 'ideatitle', 'title');
      if (!title) throw new ImportRowError(at, 'ideaTitle', 'is missing or empty');
      yield {
        kind: 'idea',
        at,
        id,
        title,
        description: pick(row, 'ideadescription', 'description') ?? '',
        status: pick(row, 'publicstatusname', 'status') ?? 'active',
        board: pick(row, 'forumname', 'forum'),
        category: pick(row, 'categoryname', 'category'),
        tags: nameList(pick(row, 'labels', 'labelnames', 'label')),
        author: person({ email: pick(row, 'ideacreatoremailaddress'), name: pick(row, 'ideacreatorname') }),
        createdAt: date(row, 'createdtimestamp', at),
      };
      const voter = person({ email: pick(row, 'useremailaddress'), name: pick(row, 'username') });
      if (voter?.email) yield { kind: 'vote', at, ideaId: id, voter };
    }
  }
  for (const file of comments) {
    for await (const { at, row } of csvRows(input.open(file), file)) {
      const ideaId = pick(row, 'suggestionid', 'ideaid');
      if (!ideaId) throw new ImportRowError(at, 'suggestionId', 'is missing or empty');
      const body = pick(row, 'text', 'body');
      if (!body) throw new ImportRowError(at, 'text', 'is missing or empty');
      yield {
        kind: 'comment',
        at,
        // The comments export has no id of its own: the idea and row keep a comment apart.
        id: pick(row, 'commentid', 'id') ?? `${ideaId}:${at.row}`,
        ideaId,
        body,
        author: person({ email: pick(row, 'useremail', 'useremailaddress'), name: pick(row, 'username') }),
        createdAt: date(row, 'createdat', at),
      };
    }
  }
}
