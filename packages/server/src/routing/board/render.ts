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

/** A page rendered with placeholders, and its entity tag. */
export interface RenderedPage {
  html: string;
  etag: string;
}

export function renderPage(tree: VNode): RenderedPage {
  const html = `<!doctype html>${renderToString(tree)}`;
  return { html, etag: `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
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
  let body = page.html.replaceAll(NONCE_PLACEHOLDER, nonce);
  if (body.includes(CSRF_PLACEHOLDER)) body = body.replaceAll(CSRF_PLACEHOLDER, reply.generateCsrf());
  reply.header('content-security-policy', contentSecurityPolicy(nonce));
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}
