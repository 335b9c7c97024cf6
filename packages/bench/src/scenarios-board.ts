/** The public board's server-rendered pages. */
import { boardSizeScenarioIds } from './scenario-ids.ts';
import { BENCH_BOARD_IDEAS, BENCH_BOARD_PROJECT_ID, BENCH_ROADMAP_SIZES, roadmapProjectId } from './seed.ts';
import { fail, type Scenario } from './scenario-kit.ts';
import type { WrkRequest } from './wrk.ts';

const BOARD = `/b/${BENCH_BOARD_PROJECT_ID}`;

/**
 * The public board's pages, server-rendered HTML over 1,000 ideas. A scenario's check fills in
 * what only the running server knows (the page's entity tag, an idea's id) before wrk runs.
 */
export function boardScenarios(): Scenario[] {
  const notModified: WrkRequest = { path: `${BOARD}/`, headers: {} };
  const idea: WrkRequest = { path: `${BOARD}/ideas/` };
  const page = async (origin: string, path: string, what: string) => {
    const response = await fetch(`${origin}${path}`);
    const html = await response.text();
    if (response.status !== 200 || !html.startsWith('<!doctype html>')) fail(`${what}: ${response.status}`);
    return { response, html };
  };
  return [
    {
      id: 'board-ideas',
      label: `Board: ideas page (top 20 of ${BENCH_BOARD_IDEAS})`,
      request: { path: `${BOARD}/` },
      target: { ratio: 0.15 },
      check: async (origin) => {
        const { html } = await page(origin, `${BOARD}/`, 'board ideas page');
        if (!html.includes(`${BENCH_BOARD_IDEAS} ideas`)) fail('board ideas page does not count 1000 ideas');
      },
    },
    {
      id: 'board-ideas-304',
      label: 'Board: ideas page, unchanged → 304',
      request: notModified,
      target: { ratio: 0.15 },
      check: async (origin) => {
        const { response } = await page(origin, `${BOARD}/`, 'board ideas page');
        const etag = response.headers.get('etag');
        if (!etag) fail('board ideas page has no ETag');
        notModified.headers = { 'If-None-Match': etag };
        const again = await fetch(`${origin}${BOARD}/`, { headers: { 'if-none-match': etag } });
        if (again.status !== 304) fail(`board ideas page with If-None-Match: ${again.status}, expected 304`);
      },
    },
    {
      id: 'board-search',
      label: 'Board: full-text search (ideas page, q=calendar)',
      request: { path: `${BOARD}/?q=calendar` },
      check: async (origin) => {
        const { html } = await page(origin, `${BOARD}/?q=calendar`, 'board search');
        if (!html.includes('calendar sync')) fail('board search found no "calendar sync" idea');
      },
    },
    {
      id: 'board-idea',
      label: 'Board: an idea page',
      request: idea,
      check: async (origin) => {
        const { html } = await page(origin, `${BOARD}/`, 'board ideas page');
        const id = /\/ideas\/(feat_[a-z0-9]+)/.exec(html)?.[1];
        if (!id) fail('no idea link on the board');
        idea.path = `${BOARD}/ideas/${id}`;
        await page(origin, idea.path, 'board idea page');
      },
    },
  ];
}

/**
 * The board of a roadmap project of `size` public items (issue 30: the board's ideas page at
 * 100,000 ideas within 20 % of 100, a typo search included): its first page, and `q=exprot`
 * (corrected to "export", which a fifth of the items hold: a full page of 20 at both sizes, so
 * the two rows render the same amount; `chekout`, held by a tenth, listed 10 at 100 ideas and
 * 20 at 100,000, and the rows compared page sizes, not scale).
 */
export function boardSizeScenarios(size: number): Scenario[] {
  const board = `/b/${roadmapProjectId(size)}`;
  const [ideasId, typoId] = boardSizeScenarioIds(size) as [string, string];
  const [smallIdeas, smallTypo] = boardSizeScenarioIds(BENCH_ROADMAP_SIZES[0]) as [string, string];
  const relative = (of: string) => (size !== BENCH_ROADMAP_SIZES[0] ? { target: { of, share: 0.8 } } : {});
  const count = size.toLocaleString('en-US');
  return [
    {
      id: ideasId,
      label: `Board: ideas page of ${count} ideas`,
      request: { path: `${board}/` },
      ...relative(smallIdeas),
      check: async (origin) => {
        const response = await fetch(`${origin}${board}/`);
        const html = await response.text();
        if (response.status !== 200 || !html.startsWith('<!doctype html>'))
          fail(`board of ${count}: ${response.status}`);
      },
    },
    {
      id: typoId,
      label: `Board: search with a typo (q=exprot) over ${count} ideas`,
      request: { path: `${board}/?q=exprot` },
      ...relative(smallTypo),
      check: async (origin) => {
        const response = await fetch(`${origin}${board}/?q=exprot`);
        const html = await response.text();
        if (response.status !== 200) fail(`board typo search of ${count}: ${response.status}`);
        if (!/Roadmap item \d+: [^<]*\bexport\b/.test(html))
          fail(`board typo search of ${count} found no "export" item`);
      },
    },
  ];
}
