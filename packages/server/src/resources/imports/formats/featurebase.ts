/**
 * Featurebase: its posts as its API lists them (https://docs.featurebase.app, "submissions":
 * `id`, `title`, `content`, `postStatus {name}`, `postCategory {category}`, `postTags [{name,
 * color, private}]`, `user {id, name, email}`, `date`), as a JSON file (the list, or
 * `{ "results": [...] }`) or in a directory / zip with `comments.json` (`id`, `submissionId`,
 * `content`, `author {…}` or `user {…}`, `createdAt`); or its posts CSV (Title, Content, Status,
 * Board, Tags (comma-separated), Author Name, Author Email, Created At, Id).
 */
import { csvRows, pick } from '../csv.ts';
import { findFile, type ImportInput } from '../input.ts';
import { jsonItems } from '../json.ts';
import {
  badFile,
  date,
  hexColor,
  type IdeaTag,
  ImportRowError,
  nameList,
  object,
  person,
  required,
  text,
  type ImportRecord,
  type Row,
  type Where,
} from '../records.ts';

/** A post's `postTags`: a list of `{name, color, private}` (or of names); a private one is marked so. */
function postTags(row: Row, at: Where): IdeaTag[] | undefined {
  const value = row['postTags'];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ImportRowError(at, 'postTags', 'expected a list');
  return value.map((item: unknown, index): IdeaTag => {
    const tag: Row = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Row) : { name: item };
    const name = text(tag, 'name');
    if (!name) throw new ImportRowError(at, `postTags[${index}].name`, 'is missing');
    return { name, color: hexColor(text(tag, 'color')), private: tag['private'] === true };
  });
}

export async function* readFeaturebase(input: ImportInput): AsyncGenerator<ImportRecord> {
  const csv = input.names.find((name) => /\.csv$/i.test(name));
  if (csv) {
    for await (const { at, row } of csvRows(input.open(csv), csv)) {
      const title = pick(row, 'title');
      if (!title) throw new ImportRowError(at, 'Title', 'is missing or empty');
      yield {
        kind: 'idea',
        at,
        id: pick(row, 'id', 'postid', 'url', 'posturl') ?? `title:${title.toLowerCase()}`,
        title,
        description: pick(row, 'content', 'description', 'details') ?? '',
        status: pick(row, 'status', 'poststatus') ?? 'in review',
        board: pick(row, 'board', 'category'),
        tags: nameList(pick(row, 'tags', 'posttags')),
        author: person({ email: pick(row, 'authoremail', 'email'), name: pick(row, 'authorname', 'author') }),
        createdAt: date(row, ['createdat', 'date', 'created'].find((c) => row[c]) ?? 'createdat', at),
      };
    }
    return;
  }
  const posts =
    findFile(input, 'posts.json', 'submissions.json') ?? (input.names.length === 1 ? input.names[0] : undefined);
  if (!posts) throw badFile('(export)', 'a Featurebase export needs a posts CSV or posts.json');
  for await (const { at, row } of jsonItems(() => input.open(posts), posts, 'results')) {
    yield {
      kind: 'idea',
      at,
      id: required(row, 'id', at),
      title: required(row, 'title', at),
      description: text(row, 'content') ?? '',
      status: text(object(row, 'postStatus', at) ?? {}, 'name') ?? 'in review',
      board: text(object(row, 'postCategory', at) ?? {}, 'category'),
      tags: postTags(row, at),
      author: person(object(row, 'user', at)),
      createdAt: date(row, 'date', at),
    };
  }
  const comments = findFile(input, 'comments.json');
  if (comments) {
    for await (const { at, row } of jsonItems(() => input.open(comments), comments, 'results')) {
      yield {
        kind: 'comment',
        at,
        id: required(row, 'id', at),
        ideaId: required(row, 'submissionId', at),
        body: required(row, 'content', at),
        author: person(object(row, 'author', at) ?? object(row, 'user', at)),
        internal: row['isPrivate'] === true,
        createdAt: date(row, 'createdAt', at),
      };
    }
  }
}
