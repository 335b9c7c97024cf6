/**
 * Rendered board pages for readers the page does not depend on (no session, no anonymous-vote
 * cookie), kept until the database reports a commit (`ChangeCache`: SQLite's data_version, any
 * process). On a database without a change marker (PostgreSQL) every page is rendered afresh.
 * Measured on the ideas page over 1,000 ideas: the render and its reads were about 3 ms of a
 * request; a kept page leaves the routing and the board lookup.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { Database } from '../../db/database.ts';
import { ChangeCache } from '../../http/change-cache.ts';
import { VISITOR_COOKIE } from './cookies.ts';
import { type RenderedPage, renderPage, sendRendered } from './render.ts';

export class BoardPageCache {
  private readonly pages: ChangeCache<RenderedPage>;

  constructor(db: Database, maxPages = 2_000) {
    this.pages = new ChangeCache(db, maxPages);
  }

  /** Sends the page `build` makes, from the cache when the reader is anonymous and nothing changed. */
  async send(request: FastifyRequest, reply: FastifyReply, build: () => Promise<VNode>): Promise<FastifyReply> {
    const ctx = request.board;
    if (ctx.user || request.cookies[VISITOR_COOKIE] !== undefined) {
      return sendRendered(request, reply, renderPage(await build()));
    }
    // Everything a page shows to an anonymous reader follows from these and the database.
    const key = `${ctx.project.id}\n${ctx.base}\n${ctx.origin}\n${ctx.locale}\n${request.url}`;
    const page = await this.pages.get(key, async () => renderPage(await build()));
    return sendRendered(request, reply, page);
  }
}
