/**
 * Fider's backup: a zip (or its unpacked directory) of one JSON file per table. Read here:
 * `users.json` (`id`, `name`, `email`), `posts.json` (`id`, `number`, `title`, `description`,
 * `status` as Fider's number, `user_id`, `created_at`), `post_votes.json` (`post_id`, `user_id`,
 * `created_at`), `comments.json` (`id`, `post_id`, `content`, `user_id`, `created_at`), and its
 * tags: `tags.json` (`id`, `name`, `color` as `RRGGBB`, `is_public`) and `post_tags.json` (`post_id`,
 * `tag_id`), which become the project's tags on the ideas (a tag only Fider's staff saw is left
 * out: Signpost's tags show on the public board). Rows name users and tags by id only; the users and
 * tags files are read first, so they are known by then.
 */
import { findFile, type ImportInput } from '../input.ts';
import { jsonItems } from '../json.ts';
import { badFile, date, hexColor, required, text, type ImportRecord } from '../records.ts';

/** Fider's post statuses (its models/enum: 0 open … 6 deleted), by name for the status table. */
const FIDER_STATUS = ['open', 'started', 'completed', 'declined', 'planned', 'duplicate', 'deleted'];

export async function* readFider(input: ImportInput): AsyncGenerator<ImportRecord> {
  const posts = findFile(input, 'posts.json');
  if (!posts) throw badFile('(export)', 'a Fider backup needs posts.json');
  const users = findFile(input, 'users.json');
  if (users) {
    for await (const { at, row } of jsonItems(() => input.open(users), users, 'users')) {
      yield { kind: 'user', at, id: required(row, 'id', at), email: text(row, 'email'), name: text(row, 'name') };
    }
  }
  const tags = findFile(input, 'tags.json');
  if (tags) {
    for await (const { at, row } of jsonItems(() => input.open(tags), tags, 'tags')) {
      const id = required(row, 'id', at);
      const name = required(row, 'name', at);
      yield { kind: 'board', at, id, name, color: hexColor(text(row, 'color')), private: row['is_public'] === false };
    }
  }
  for await (const { at, row } of jsonItems(() => input.open(posts), posts, 'posts')) {
    const status = row['status'];
    const userId = text(row, 'user_id');
    yield {
      kind: 'idea',
      at,
      id: required(row, 'id', at),
      title: required(row, 'title', at),
      description: text(row, 'description') ?? '',
      status: typeof status === 'number' ? (FIDER_STATUS[status] ?? String(status)) : (text(row, 'status') ?? 'open'),
      author: userId ? { id: userId } : undefined,
      createdAt: date(row, 'created_at', at),
    };
  }
  const votes = findFile(input, 'post_votes.json');
  if (votes) {
    for await (const { at, row } of jsonItems(() => input.open(votes), votes, 'post_votes')) {
      yield {
        kind: 'vote',
        at,
        ideaId: required(row, 'post_id', at),
        voter: { id: required(row, 'user_id', at) },
        createdAt: date(row, 'created_at', at),
      };
    }
  }
  const postTags = findFile(input, 'post_tags.json');
  if (postTags) {
    for await (const { at, row } of jsonItems(() => input.open(postTags), postTags, 'post_tags')) {
      yield { kind: 'idea-tag', at, ideaId: required(row, 'post_id', at), boardId: required(row, 'tag_id', at) };
    }
  }
  const comments = findFile(input, 'comments.json');
  if (comments) {
    for await (const { at, row } of jsonItems(() => input.open(comments), comments, 'comments')) {
      const userId = text(row, 'user_id');
      yield {
        kind: 'comment',
        at,
        id: required(row, 'id', at),
        ideaId: required(row, 'post_id', at),
        body: required(row, 'content', at),
        author: userId ? { id: userId } : undefined,
        createdAt: date(row, 'created_at', at),
      };
    }
  }
}
