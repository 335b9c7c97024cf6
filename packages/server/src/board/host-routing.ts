/**
 * A project's board can answer at `/` of its own domain. Before Fastify routes a request, a Host
 * that is not the server's own is looked up (remembered for a few seconds, so a settings change
 * reaches every process within that time) and the request is re-addressed to `/b/<slug>/…`,
 * marked so the board builds its links without the prefix.
 */
import type { IncomingMessage } from 'node:http';
import type { Database } from '../db/database.ts';
import { slugForDomain } from '../resources/board/index.ts';

const AT_CUSTOM_DOMAIN = Symbol('signpost.board.customDomain');
const REMEMBER_MS = 5_000;
const MAX_HOSTS = 1_000;

export function servedAtCustomDomain(request: IncomingMessage): boolean {
  return (request as IncomingMessage & { [AT_CUSTOM_DOMAIN]?: boolean })[AT_CUSTOM_DOMAIN] === true;
}

function hostName(header: string): string | undefined {
  const host = header.toLowerCase();
  // Host names only: strip a port; IPv6 literals never name a board.
  if (host.startsWith('[')) return undefined;
  return host.replace(/:\d+$/, '');
}

export function createHostRouter(db: Database, publicUrl: string) {
  const ownHost = new URL(publicUrl).hostname.toLowerCase();
  const known = new Map<string, { slug: string | undefined; until: number }>();
  /**
   * Host headers, exactly as sent, that never name a board (the server's own, localhost, an
   * address): every request asks, and taking the header apart each time showed in profiles.
   */
  const ownHeaders = new Set<string>();
  return {
    /**
     * Re-addresses a request for a custom domain. Answers synchronously (false) for the server's
     * own host and hosts looked up recently; otherwise a promise.
     */
    route(request: IncomingMessage): boolean | Promise<boolean> {
      const header = request.headers.host;
      if (!header || ownHeaders.has(header)) return false;
      const host = hostName(header);
      if (!host || host === ownHost || host === 'localhost' || /^[\d.]+$/.test(host)) {
        if (ownHeaders.size >= MAX_HOSTS) ownHeaders.clear();
        ownHeaders.add(header);
        return false;
      }
      const now = Date.now();
      const hit = known.get(host);
      if (hit && hit.until > now) return apply(request, hit.slug);
      return slugForDomain(db, host).then(
        (slug) => {
          if (known.size >= MAX_HOSTS) known.clear();
          known.set(host, { slug, until: now + REMEMBER_MS });
          return apply(request, slug);
        },
        () => false,
      );
    },
  };
}

function apply(request: IncomingMessage, slug: string | undefined): boolean {
  if (!slug) return false;
  request.url = `/b/${encodeURIComponent(slug)}${request.url === '/' ? '' : (request.url ?? '')}`;
  (request as IncomingMessage & { [AT_CUSTOM_DOMAIN]?: boolean })[AT_CUSTOM_DOMAIN] = true;
  return true;
}
