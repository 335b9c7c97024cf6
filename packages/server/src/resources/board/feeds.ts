/**
 * The board's feeds, RSS 2.0 and Atom 1.0, built with the `feed` package: the changelog
 * (published entries, newest first, each with the public idea it shipped) and new ideas. The
 * callers pass public rows only (listBoardChangelog of the changelog index, listBoardIdeas of the
 * features index); nothing here reads the database.
 *
 * Every text is escaped here: titles and idea texts are user-written, so they go out as escaped
 * HTML (feed readers render titles and summaries as HTML: Atom's are `type="html"`), entry
 * descriptions are sanitised once more, and characters XML 1.0 forbids are dropped so a title
 * with a control character cannot make the document unreadable.
 */
import type { Feed, Item } from 'feed';
import { lazyModule } from '../../kernel/lazy-module.ts';
import { escapeHtml } from '../../kernel/html.ts';
import { sanitizeDescription, type BoardChangelogEntry } from '../changelog/index.ts';
import { STATUS_LABELS, type BoardIdea } from '../features/index.ts';

export type FeedFormat = 'rss' | 'atom';

/** What a feed says about its board. */
export interface BoardFeedInfo {
  /** The board's title (e.g. the board title, else the project name). */
  title: string;
  /** The board's absolute address without a trailing slash: `https://host/b/<slug>` or a custom domain's origin. */
  url: string;
  /** The feed's own absolute address (its `self` link). */
  feedUrl: string;
  /** A BCP 47 language tag, e.g. `en`. */
  language?: string | undefined;
  logoUrl?: string | null | undefined;
}

/**
 * Drops what XML 1.0 does not allow: control characters (tab, newline and return stay; C1 controls
 * go too), lone surrogates, U+FFFE and U+FFFF.
 */
export function xmlSafe(text: string): string {
  return text.replace(/\p{Cc}|\p{Cs}|[\uFFFE\uFFFF]/gu, (c) => (c === '\t' || c === '\n' || c === '\r' ? c : ''));
}

/** Plain text as HTML for a feed: escaped (which also leaves no `]]>` to end a CDATA section). */
const textAsHtml = (text: string) => escapeHtml(xmlSafe(text));

/** HTML for a CDATA section: `]]>` cannot end it early. */
const cdataSafe = (html: string) => xmlSafe(html).replaceAll(']]>', ']]&gt;');

/** A category: RSS shows its name, Atom needs a term. */
const category = (name: string) => ({ name: xmlSafe(name), term: xmlSafe(name) });

export const ideaUrl = (board: BoardFeedInfo, ideaId: string) => `${board.url}/ideas/${encodeURIComponent(ideaId)}`;
export const changelogUrl = (board: BoardFeedInfo) => `${board.url}/changelog`;

const feedModule = lazyModule<typeof import('feed')>('feed', import.meta.url);

function newFeed(board: BoardFeedInfo, title: string, link: string, updated: Date, format: FeedFormat): Feed {
  return new (feedModule().Feed)({
    title: xmlSafe(title),
    id: link,
    link,
    language: board.language,
    updated,
    generator: 'Signpost',
    ...(board.logoUrl ? { image: board.logoUrl } : {}),
    feedLinks: format === 'rss' ? { rss: board.feedUrl } : { atom: board.feedUrl },
  });
}

const render = (feed: Feed, format: FeedFormat) => (format === 'rss' ? feed.rss2() : feed.atom1());

/**
 * The changelog feed: `entries` as listBoardChangelog returns them (published, public ideas
 * only, newest first). Each item links to the entry's permalink page; its content is the
 * sanitised description and links to the ideas it shipped.
 */
export function changelogFeed(
  board: BoardFeedInfo,
  entries: readonly BoardChangelogEntry[],
  format: FeedFormat,
): string {
  const page = changelogUrl(board);
  const newest = entries[0] ? new Date(entries[0].publishedAt) : new Date(0);
  const feed = newFeed(board, `${board.title}: changelog`, page, newest, format);
  for (const entry of entries) {
    const label = entry.statusLabel ?? STATUS_LABELS[entry.statusKey as keyof typeof STATUS_LABELS] ?? entry.statusKey;
    const ideas = entry.ideas.map(
      (idea) => `<a href="${escapeHtml(ideaUrl(board, idea.id))}">${textAsHtml(idea.title)}</a>`,
    );
    const shipped = ideas.length > 0 ? `<p>${escapeHtml(label)}: ${ideas.join(', ')}</p>` : '';
    const item: Item = {
      title: textAsHtml(entry.summary),
      // The id stays what it was (readers keep items they saw); the link is the entry's own page.
      id: `${page}#${encodeURIComponent(entry.id)}`,
      link: `${page}/${encodeURIComponent(entry.id)}`,
      date: new Date(entry.publishedAt),
      description: cdataSafe(sanitizeDescription(entry.description) + shipped) || textAsHtml(entry.summary),
      category: [category(label)],
    };
    feed.addItem(item);
  }
  return render(feed, format);
}

/** The new-ideas feed: `ideas` as listBoardIdeas returns them with sort `new` (public ideas only). */
export function ideasFeed(board: BoardFeedInfo, ideas: readonly BoardIdea[], format: FeedFormat): string {
  const newest = ideas[0] ? new Date(ideas[0].createdAt) : new Date(0);
  const feed = newFeed(board, `${board.title}: new ideas`, board.url, newest, format);
  for (const idea of ideas) {
    const link = ideaUrl(board, idea.id);
    const label = STATUS_LABELS[idea.status as keyof typeof STATUS_LABELS] ?? idea.status;
    feed.addItem({
      title: textAsHtml(idea.title),
      id: link,
      link,
      date: new Date(idea.createdAt),
      description: `<p>${textAsHtml(idea.excerpt)}</p><p>${escapeHtml(label)} · ${idea.voteCount} ${idea.voteCount === 1 ? 'vote' : 'votes'}</p>`,
      category: [category(label), ...idea.tags.map((tag) => category(tag.name))],
    });
  }
  return render(feed, format);
}
