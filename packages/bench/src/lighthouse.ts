/**
 * Lighthouse (the `lighthouse` package, Debian's Chromium) against the public board's ideas page
 * and an idea page, on the benchmark's board of 1,000 ideas: performance, accessibility, best
 * practices and SEO scores, with Lighthouse's default mobile emulation and throttling. It measures
 * and records (results/lighthouse.json, the table in README.md); it asserts nothing.
 *
 *   npm run lighthouse -w @signpost/bench
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer, stopProcess } from './processes.ts';
import { BENCH_BOARD_PROJECT_ID, seedBenchDatabase } from './seed.ts';

const SERVER_MAIN = fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
const RESULTS = fileURLToPath(new URL('../results/lighthouse.json', import.meta.url));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const dataDir = mkdtempSync(join(tmpdir(), 'signpost-lighthouse-'));
const server = await (async () => {
  const databaseUrl = `sqlite:${join(dataDir, 'signpost.db')}`;
  await seedBenchDatabase(databaseUrl, dataDir, { logGroups: false, roadmapSizes: [] });
  return startServer(SERVER_MAIN, dataDir, databaseUrl);
})();
const origin = `http://127.0.0.1:${server.port}`;
const chrome = await chromeLauncher.launch({
  chromePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox'],
});
try {
  const board = `${origin}/b/${BENCH_BOARD_PROJECT_ID}`;
  const html = await (await fetch(`${board}/`)).text();
  const ideaId = /\/ideas\/(feat_[a-z0-9]+)/.exec(html)?.[1];
  const pages = { ideas: `${board}/`, idea: `${board}/ideas/${ideaId}` };
  const results: Record<string, Record<string, number>> = {};
  for (const [name, url] of Object.entries(pages)) {
    const run = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      onlyCategories: [...CATEGORIES],
      logLevel: 'error',
    });
    const lhr = run!.lhr;
    results[name] = Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round((lhr.categories[category]?.score ?? 0) * 100)]),
    );
    const metrics = lhr.audits;
    results[name]!['lcpMs'] = Math.round(metrics['largest-contentful-paint']?.numericValue ?? 0);
    results[name]!['tbtMs'] = Math.round(metrics['total-blocking-time']?.numericValue ?? 0);
    results[name]!['transferKiB'] = Math.round((metrics['total-byte-weight']?.numericValue ?? 0) / 1024);
    const failed = Object.values(lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
      .map((audit) => audit.id);
    process.stdout.write(
      `${name}: ${JSON.stringify(results[name])}${failed.length ? `\n  not passed: ${failed.join(', ')}` : ''}\n`,
    );
  }
  writeFileSync(
    RESULTS,
    `${JSON.stringify({ when: new Date().toISOString(), lighthouse: 'mobile, default throttling', results }, null, 2)}\n`,
  );
} finally {
  await chrome.kill();
  await stopProcess(server.child);
  rmSync(dataDir, { recursive: true, force: true });
}
