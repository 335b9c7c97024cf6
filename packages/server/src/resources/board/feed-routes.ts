/**
 * The board's feeds: RSS 2.0 and Atom of the changelog (published entries, with the idea each
 * shipped) and of new ideas, public items only; linked from every page with `<link rel="alternate">`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BoardDeps } from '../../routing/board/context.ts';
import { listBoardChangelog } from '../changelog/index.ts';
import { listBoardIdeas } from '../features/index.ts';
import { type BoardFeedInfo, changelogFeed, type FeedFormat, ideasFeed } from './feeds.ts';

const FEED_ITEMS = 50;
const TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};

function feedInfo(request: FastifyRequest, path: string): BoardFeedInfo {
  const ctx = request.board;
  return {
    title: ctx.board.title ?? ctx.project.name,
    url: ctx.origin,
    feedUrl: `${ctx.origin}${path}`,
    language: ctx.locale,
    logoUrl: ctx.board.logoUrl,
  };
}

function sendFeed(request: FastifyRequest, reply: FastifyReply, format: FeedFormat, xml: string): FastifyReply {
  // A private board's feed is only for its signed-in readers (the board plugin checks).
  reply.header('cache-control', request.board.board.private ? 'private, max-age=300' : 'public, max-age=300');
  return reply.type(TYPES[format]).send(xml);
}

export async function boardFeedRoutes(app: FastifyInstance, { db }: BoardDeps): Promise<void> {
  for (const format of ['rss', 'atom'] as const) {
    app.get(`/feeds/changelog.${format}`, async (request, reply) => {
      const { entries } = await listBoardChangelog(db, request.board.project.id, FEED_ITEMS, 0);
      return sendFeed(
        request,
        reply,
        format,
        changelogFeed(feedInfo(request, `/feeds/changelog.${format}`), entries, format),
      );
    });
    app.get(`/feeds/ideas.${format}`, async (request, reply) => {
      const { rows } = await listBoardIdeas(db, request.board.project.id, {
        sort: 'new',
        limit: FEED_ITEMS,
        offset: 0,
      });
      return sendFeed(request, reply, format, ideasFeed(feedInfo(request, `/feeds/ideas.${format}`), rows, format));
    });
  }
}
