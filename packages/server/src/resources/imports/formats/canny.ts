/**
 * Canny, two ways out of it:
 *
 * - `canny`: a dump of its REST API (https://developers.canny.io/api-reference) made with a token,
 *   as one JSON file `{ "users": [...], "posts": [...], "votes": [...], "comments": [...] }` or as
 *   a directory / zip with `users.json`, `posts.json`, `votes.json`, `comments.json` (each the
 *   list, or the API answer holding it, or JSON Lines). The objects are the API's: a post's
 *   `id`, `title`, `details`, `status`, `created`, `author {id, email, name}`, `board {id, name}`,
 *   `category {name}` (or null); a vote's `post {id}`, `voter {…}`, `created`; a comment's `id`, `value`, `post {id}`,
 *   `author {…}`, `internal`, `created`; a board's `id`, `name` (boards/list); a changelog entry's
 *   `id`, `title`, `markdownDetails` (or `plaintextDetails`), `status` (draft, scheduled,
 *   published), `publishedAt`, `scheduledFor`, `created`, `types` (new, improved, fixed) and
 *   `posts [{id}]` (entries/list), under `boards` and `entries` (files `boards.json` and
 *   `entries.json` or `changelog.json`). Boards and categories become tags (an idea carries its board's and its category's);
 *   entries become changelog entries linked to the ideas they name.
 * - `canny-csv`: the posts CSV of a board's export (Title, Details, Status, Board, Category,
 *   Author Name, Author Email, Created At, and Voters as a list of e-mails), without comments;
 *   the board and category become tags as in the dump.
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
  ['boards', 'board'],
  ['users', 'user'],
  ['posts', 'idea'],
  ['votes', 'vote'],
  ['comments', 'comment'],
  ['entries', 'entry'],
] as const;

/** The files of a dump in a directory or zip, per part (the changelog may be named either way). */
const PART_FILES: Record<(typeof PARTS)[number][0], string[]> = {
  boards: ['boards.json', 'boards.jsonl'],
  users: ['users.json', 'users.jsonl'],
  posts: ['posts.json', 'posts.jsonl'],
  votes: ['votes.json', 'votes.jsonl'],
  comments: ['comments.json', 'comments.jsonl'],
  entries: ['entries.json', 'entries.jsonl', 'changelog.json', 'changelog.jsonl'],
};

const ENTRY_STATUSES = ['draft', 'scheduled', 'published'] as const;
const ENTRY_TYPES = ['new', 'improved', 'fixed'] as const;

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * An entry's Markdown as the changelog's HTML: its text kept as written (no Markdown renderer on
 * the server), one paragraph per blank-line-separated block, line breaks kept.
 */
export function markdownToParagraphs(markdown: string): string {
  return markdown
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${escapeHtml(block).replaceAll(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

function entryRecord({ at, row }: JsonItem): ImportRecord {
  const status = text(row, 'status') ?? 'published';
  if (!(ENTRY_STATUSES as readonly string[]).includes(status)) {
    throw new ImportRowError(at, 'status', `"${status.slice(0, 40)}" is not one of ${ENTRY_STATUSES.join(', ')}`);
  }
  const types = row['types'];
  if (types !== undefined && types !== null && !Array.isArray(types))
    throw new ImportRowError(at, 'types', 'expected a list');
  const type = (Array.isArray(types) ? types : []).find(
    (value): value is (typeof ENTRY_TYPES)[number] =>
      typeof value === 'string' && (ENTRY_TYPES as readonly string[]).includes(value),
  );
  const posts = row['posts'];
  if (posts !== undefined && posts !== null && !Array.isArray(posts))
    throw new ImportRowError(at, 'posts', 'expected a list');
  const ideaIds = (Array.isArray(posts) ? posts : []).map((post: unknown, index) => {
    const id = post !== null && typeof post === 'object' && !Array.isArray(post) ? text(post as Row, 'id') : undefined;
    if (!id) throw new ImportRowError(at, `posts[${index}].id`, 'is missing');
    return id;
  });
  const details = text(row, 'markdownDetails') ?? text(row, 'plaintextDetails') ?? '';
  return {
    kind: 'entry',
    at,
    id: required(row, 'id', at),
    title: required(row, 'title', at),
    description: markdownToParagraphs(details),
    statusKey: type ?? 'new',
    published: status === 'published',
    publishedAt: date(row, 'publishedAt', at),
    scheduledFor: date(row, 'scheduledFor', at),
    createdAt: date(row, 'created', at),
    ideaIds,
  };
}

function refId(row: Row, column: string, at: JsonItem['at']): string {
  const ref = object(row, column, at);
  const id = ref ? text(ref, 'id') : text(row, `${column}ID`);
  if (!id) throw new ImportRowError(at, `${column}.id`, 'is missing');
  return id;
}

function cannyRecord(kind: (typeof PARTS)[number][1], item: JsonItem): ImportRecord {
  const { at, row } = item;
  switch (kind) {
    case 'board':
      return { kind, at, id: required(row, 'id', at), name: required(row, 'name', at) };
    case 'entry':
      return entryRecord(item);
    case 'user':
      return {
        kind,
        at,
        id: required(row, 'id', at),
        email: text(row, 'email'),
        name: text(row, 'name'),
        createdAt: date(row, 'created', at),
      };
    case 'idea': {
      const board = object(row, 'board', at) ?? {};
      const category = object(row, 'category', at) ?? {};
      return {
        kind,
        at,
        id: required(row, 'id', at),
        title: required(row, 'title', at),
        description: text(row, 'details') ?? '',
        status: text(row, 'status') ?? 'open',
        author: person(object(row, 'author', at)),
        board: text(board, 'name'),
        boardId: text(board, 'id'),
        category: text(category, 'name'),
        createdAt: date(row, 'created', at),
      };
    }
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
      badFile(
        file,
        'expected a Canny dump: an object with "posts" (and "boards", "users", "votes", "comments", "entries")',
      );
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
    const file = findFile(input, ...PART_FILES[key]);
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
      category: pick(row, 'category', 'categoryname'),
      author: person({ email: pick(row, 'authoremail', 'email'), name: pick(row, 'authorname', 'author') }),
      createdAt,
    };
    for (const email of splitList(pick(row, 'voters', 'voteremails', 'voteemails'))) {
      yield { kind: 'vote', at, ideaId: id, voter: { email } };
    }
  }
}
