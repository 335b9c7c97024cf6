/**
 * The built app: the page loads only files of the build (no inline script, which the CSP would
 * refuse), and its initial JavaScript (the entry and its module preloads) is at most 200 KB gzip.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const LIMIT = 200 * 1024;

describe('dashboard build', () => {
  const html = readFileSync(`${DIST}index.html`, 'utf8');

  it('has no inline script and refers only to hashed files under /app/assets', () => {
    for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      assert.match(match[1]!, /\bsrc="\/app\/assets\/[\w-]+-[\w-]{8}\.js"/, 'script with a hashed src');
      assert.equal(match[2]!.trim(), '', 'no inline script');
    }
  });

  it('loads at most 200 KB of JavaScript (gzip) before the first screen', () => {
    const urls = [
      ...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g),
      ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*\bhref="([^"]+)"/g),
    ].map((match) => match[1]!);
    assert.ok(urls.length > 0);
    let total = 0;
    for (const url of urls) {
      assert.ok(url.startsWith('/app/'), url);
      total += gzipSync(readFileSync(DIST + url.slice('/app/'.length))).length;
    }
    console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} KB gzip in ${urls.length} files`);
    assert.ok(total <= LIMIT, `${total} bytes gzip > ${LIMIT}`);
  });
});
