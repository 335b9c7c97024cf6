/**
 * The board's stylesheet and script, read once at start, served under content-hashed paths with
 * long-lived caching, brotli- or gzip-compressed (once, at start) for readers that accept it. The script is plain JavaScript
 * (type-checked through JSDoc; no bundler: it has no imports).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface BoardAsset {
  /** Below the board's base: `/assets/board.<hash>.css`. */
  path: string;
  type: string;
  body: Buffer;
  gzipped: Buffer;
  brotli: Buffer;
  etag: string;
}

function asset(name: string, extension: string, type: string, text: string): BoardAsset {
  const body = Buffer.from(text);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    path: `/assets/${name}.${hash}.${extension}`,
    type,
    body,
    gzipped: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    etag: `"${hash}"`,
  };
}

const read = (file: string) => readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8');

export const BOARD_ASSETS = {
  css: asset('board', 'css', 'text/css; charset=utf-8', read('board.css')),
  js: asset('board', 'js', 'text/javascript; charset=utf-8', read('board-client.js')),
};

/** Answers an asset: immutable caching (the path changes with the content), brotli or gzip when accepted. */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: BoardAsset): FastifyReply {
  reply.header('cache-control', 'public, max-age=31536000, immutable');
  reply.header('etag', asset.etag);
  reply.header('vary', 'Accept-Encoding');
  reply.header('x-content-type-options', 'nosniff');
  reply.type(asset.type);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
  if (encoding) {
    reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? asset.brotli : asset.gzipped);
  }
  return reply.send(asset.body);
}
