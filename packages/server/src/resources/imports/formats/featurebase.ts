/**
 * Featurebase: its posts as its API lists them (https://docs.featurebase.app, "submissions":
 * `id`, `title`, `content`, `postStatus {name}`, `postCategory {category}`, `user {id, name,
 * email}`, `date`), as a JSON file (the list, or `{ "results": [...] }`) or in a directory / zip
 * with `comments.json` (`id`, `submissionId`, `content`, `author {…}` or `user {…}`, `createdAt`);
 * or its posts CSV (Title, Content, Status, Board, Author Name, Author Email, Created At, Id).
 */
import { csvRows, pick } from '../csv.ts';
import { findFile, type ImportInput } from '../input.ts';
import { jsonItems } from '../json.ts';
import { badFile, date, ImportRowError, object, person, required, text, type ImportRecord } from '../records.ts';

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
