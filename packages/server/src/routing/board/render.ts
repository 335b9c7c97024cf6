/**
 * Sending a board page. Pages are rendered with placeholders where the per-response CSP nonce
 * and the CSRF token go, so the entity tag describes what the reader sees: an unchanged page is
 * a 304 (which keeps the cached copy's own nonce and policy), a changed one gets fresh values.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

// Per process and random, so no text a user writes can hit them by design.
const tag = randomBytes(9).toString('base64url');
export const NONCE_PLACEHOLDER = `spnonce${tag}`;
export const CSRF_PLACEHOLDER = `spcsrf${tag}`;

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Security headers of every board answer (pages, feeds, errors). */
export function securityHeaders(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'same-origin');
  reply.header('x-frame-options', 'DENY');
}

function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));
}

/**
 * A page rendered with placeholders, and its entity tag. The HTML is kept as UTF-8 bytes cut at
 * each placeholder: a response joins the pieces around its own nonce and token in one copy,
 * where replacing them in the text made two page-sized strings and encoded the result again for
 * every answer (the board's pages were a fifth of what the server allocated under the loop-delay
 * soak, and their encoding 3 % of its CPU).
 */
export interface RenderedPage {
  etag: string;
  /** The page's bytes between placeholders: one more than `slots`. */
  pieces: Buffer[];
  /** What goes between pieces[i] and pieces[i + 1]. */
  slots: ('nonce' | 'csrf')[];
  /** The bytes of the pieces together (what a cache counts). */
  byteLength: number;
}

const PLACEHOLDERS = [
  { slot: 'nonce', bytes: Buffer.from(NONCE_PLACEHOLDER) },
  { slot: 'csrf', bytes: Buffer.from(CSRF_PLACEHOLDER) },
] as const;

/** The page's bytes cut at every placeholder, in order (views of one buffer, not copies). */
function cutAtPlaceholders(html: Buffer): Pick<RenderedPage, 'pieces' | 'slots'> {
  const pieces: Buffer[] = [];
  const slots: RenderedPage['slots'] = [];
  let from = 0;
  for (;;) {
    let next: { at: number; slot: 'nonce' | 'csrf'; length: number } | undefined;
    for (const { slot, bytes } of PLACEHOLDERS) {
      const at = html.indexOf(bytes, from);
      if (at >= 0 && (!next || at < next.at)) next = { at, slot, length: bytes.length };
    }
    if (!next) break;
    pieces.push(html.subarray(from, next.at));
    slots.push(next.slot);
    from = next.at + next.length;
  }
  pieces.push(html.subarray(from));
  return { pieces, slots };
}

export function renderPage(tree: VNode): RenderedPage {
  const html = Buffer.from(`<!doctype html>${renderToString(tree)}`);
  const etag = `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  return { etag, ...cutAtPlaceholders(html), byteLength: html.byteLength };
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, tree: VNode, status = 200): FastifyReply {
  return sendRendered(request, reply, renderPage(tree), status);
}

/** Sends a rendered page: a 304 when the reader has it, else the page with a fresh nonce and token. */
export function sendRendered(
  request: FastifyRequest,
  reply: FastifyReply,
  page: RenderedPage,
  status = 200,
): FastifyReply {
  securityHeaders(reply);
  reply.header('vary', 'Cookie, Accept-Language');
  reply.header('cache-control', 'private, no-cache');
  if (status === 200) {
    reply.header('etag', page.etag);
    if ((request.method === 'GET' || request.method === 'HEAD') && matches(request, page.etag)) {
      return reply.code(304).send();
    }
  }
  const nonce = randomBytes(16).toString('base64');
  const nonceBytes = Buffer.from(nonce);
  let csrf: Buffer | undefined; // made only for a page with a form
  const parts: Buffer[] = [page.pieces[0]!];
  for (let i = 0; i < page.slots.length; i++) {
    if (page.slots[i] === 'csrf') csrf ??= Buffer.from(reply.generateCsrf());
    parts.push(page.slots[i] === 'nonce' ? nonceBytes : csrf!, page.pieces[i + 1]!);
  }
  reply.header('content-security-policy', contentSecurityPolicy(nonce));
  return reply.code(status).type('text/html; charset=utf-8').send(Buffer.concat(parts));
}
