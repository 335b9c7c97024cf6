/**
 * Canny, two ways out of it:
 *
 * - `canny`: a dump of its REST API (https://developers.canny.io/api-reference) made with a token,
 *   as one JSON file `{ "users": [...], "posts": [...], "votes": [...], "comments": [...] }` or as
 *   a directory / zip with `users.json`, `posts.json`, `votes.json`, `comments.json` (each the
 *   list, or the API answer holding it, or JSON Lines). The objects are the API's: a post's
 *   `id`, `title`, `details`, `status`, `created`, `author {id, email, name}`, `board {name}`; a
 *   vote's `post {id}`, `voter {…}`, `created`; a comment's `id`, `value`, `post {id}`,
 *   `author {…}`, `internal`, `created`. `boards.json` and `changelog.json` are not imported.
 * - `canny-csv`: the posts CSV of a board's export (Title, Details, Status, Board, Author Name,
 *   Author Email, Created At, and Voters as a list of e-mails), without comments.
 */
import { csvRows, pick } from '../csv.ts';
import { findFile, type ImportInput } from '../input.ts';
import { firstCharacter, jsonItems, streamArray, streamArrays, type JsonItem } from '../json.ts';
import {
  badFile,
  date,
  ImportRowError,
  object,
  person,
  required,
  text,
  type ImportRecord,
  type Row,
} from '../records.ts';

const PARTS = [
  ['users', 'user'],
  ['posts', 'idea'],
  ['votes', 'vote'],
  ['comments', 'comment'],
] as const;

function refId(row: Row, column: string, at: JsonItem['at']): string {
  const ref = object(row, column, at);
  const id = ref ? text(ref, 'id') : text(row, `${column}ID`);
  if (!id) throw new ImportRowError(at, `${column}.id`, 'is missing');
  return id;
}

function cannyRecord(kind: (typeof PARTS)[number][1], { at, row }: JsonItem): ImportRecord {
  switch (kind) {
    case 'user':
      return {
        kind,
        at,
        id: required(row, 'id', at),
        email: text(row, 'email'),
        name: text(row, 'name'),
        createdAt: date(row, 'created', at),
      };
    case 'idea':
      return {
        kind,
        at,
        id: required(row, 'id', at),
        title: required(row, 'title', at),
        description: text(row, 'details') ?? '',
        status: text(row, 'status') ?? 'open',
        author: person(object(row, 'author', at)),
        board: text(object(row, 'board', at) ?? {}, 'name'),
        createdAt: date(row, 'created', at),
      };
    case 'vote': {
      const voter = person(object(row, 'voter', at));
      if (!voter) throw new ImportRowError(at, 'voter', 'is missing');
      return { kind, at, ideaId: refId(row, 'post', at), voter, createdAt: date(row, 'created', at) };
    }
    case 'comment':
      return {
        kind,
        at,
        id: required(row, 'id', at),
        ideaId: refId(row, 'post', at),
        body: required(row, 'value', at),
        author: person(object(row, 'author', at)),
        internal: row['internal'] === true,
        createdAt: date(row, 'created', at),
      };
  }
}

/**
 * Whether a one-file dump's parts (users, posts, votes, comments) come in that order, learnt by
 * the first read (the service's validation pass reads the whole export before applying it). In
 * order, each later read is one pass over the file; else one pass per part, so a vote never
 * comes before its post.
 */
const partsInOrder = new WeakMap<ImportInput, boolean>();

export async function* readCanny(input: ImportInput): AsyncGenerator<ImportRecord> {
  if (input.names.length === 1 && !findFile(input, 'posts.json', 'posts.jsonl')) {
    // One file: the whole dump in one document, streamed.
    const file = input.names[0]!;
    const notDump = () =>
      badFile(file, 'expected a Canny dump: an object with "posts" (and "users", "votes", "comments")');
    if ((await firstCharacter(input.open(file))) !== '{') throw notDump();
    let posts = 0;
    if (partsInOrder.get(input) === false) {
      // The parts are not in the order they apply in: one pass over the file per part.
      for (const [key, kind] of PARTS) {
        for await (const item of streamArray(input.open(file), file, `$.${key}`)) {
          if (kind === 'idea') posts += 1;
          yield cannyRecord(kind, item);
        }
      }
    } else {
      // One pass over the file, noting whether the parts come in the order they apply in.
      let rank = 0;
      let inOrder = true;
      const paths = PARTS.map(([key]) => `$.${key}`);
      for await (const item of streamArrays(input.open(file), file, paths)) {
        const part = paths.indexOf(item.path);
        if (part < rank) inOrder = false;
        rank = Math.max(rank, part);
        const kind = PARTS[part]![1];
        if (kind === 'idea') posts += 1;
        yield cannyRecord(kind, item);
      }
      partsInOrder.set(input, inOrder);
    }
    if (posts === 0) throw notDump();
    return;
  }
  if (!findFile(input, 'posts.json', 'posts.jsonl')) throw badFile('(export)', 'a Canny dump needs posts.json');
  for (const [key, kind] of PARTS) {
    const file = findFile(input, `${key}.json`, `${key}.jsonl`);
    if (!file) continue;
    for await (const item of jsonItems(() => input.open(file), file, key)) yield cannyRecord(kind, item);
  }
}

/** Voters listed in one cell: e-mails separated by commas, semicolons or new lines. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[,;\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export async function* readCannyCsv(input: ImportInput): AsyncGenerator<ImportRecord> {
  const file = input.names.find((name) => /\.csv$/i.test(name)) ?? input.names[0]!;
  for await (const { at, row } of csvRows(input.open(file), file)) {
    const title = pick(row, 'title', 'posttitle');
    if (!title) throw new ImportRowError(at, 'Title', 'is missing or empty');
    // Without an id column the post's URL, else its title, keeps it apart from the others.
    const id = pick(row, 'id', 'postid', 'url', 'posturl', 'link') ?? `title:${title.toLowerCase()}`;
    const createdAt = date(row, ['createdat', 'createddate', 'created', 'date'].find((c) => row[c]) ?? 'createdat', at);
    yield {
      kind: 'idea',
      at,
      id,
      title,
      description: pick(row, 'details', 'description', 'content') ?? '',
      status: pick(row, 'status') ?? 'open',
      board: pick(row, 'board', 'boardname'),
      author: person({ email: pick(row, 'authoremail', 'email'), name: pick(row, 'authorname', 'author') }),
      createdAt,
    };
    for (const email of splitList(pick(row, 'voters', 'voteremails', 'voteemails'))) {
      yield { kind: 'vote', at, ideaId: id, voter: { email } };
    }
  }
}
