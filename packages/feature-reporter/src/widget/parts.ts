/**
 * Widget v2 pieces (issue 35) kept out of element.ts: the markup of similar ideas and of "my
 * ideas", and the page screenshot. The screenshot library (modern-screenshot) is imported on the
 * first "Add a screenshot" click only, so bundlers split it off and the widget stays small.
 */
import type { FeatureType, MyIdea, SuggestedIdea } from '../types.js';
import type { FeedbackWidgetTexts } from './texts.js';

export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
export const votesText = (t: FeedbackWidgetTexts, count: number) =>
  count === 1 ? t.oneVote : fill(t.votes, { count });

/** One similar idea: its title, status, votes and a toggle button to vote for it. */
export function suggestionsHtml(ideas: SuggestedIdea[], t: FeedbackWidgetTexts, id: string): string {
  return ideas
    .map(
      (idea, i) => `<li part="suggestion">
  <span class="s-title" id="${id}-s${i}">${esc(idea.title)}</span>
  <span class="s-meta"><span class="badge" part="status">${esc(idea.statusLabel)}</span>
  <span class="s-votes" data-votes="${esc(idea.id)}">${esc(votesText(t, idea.voteCount))}</span></span>
  <button type="button" class="vote" part="vote" data-id="${esc(idea.id)}" aria-pressed="${idea.voted}" aria-describedby="${id}-s${i}">${esc(idea.voted ? t.voted : t.vote)}</button>
</li>`,
    )
    .join('');
}

/** The person's ideas with their status, or "Shipped in …" once a published entry shipped one. */
export function myIdeasHtml(ideas: MyIdea[], t: FeedbackWidgetTexts): string {
  if (ideas.length === 0) return `<li class="empty">${esc(t.myIdeasEmpty)}</li>`;
  return ideas
    .map(
      (idea) => `<li part="my-idea"><span class="s-title">${esc(idea.title)}</span>
  <span class="badge" part="status">${esc(idea.shippedIn ? fill(t.shippedIn, { entry: idea.shippedIn.summary }) : idea.statusLabel)}</span></li>`,
    )
    .join('');
}

const MAX_BYTES = 2 * 1024 * 1024;

/**
 * A JPEG of the page as it looks, without the widget itself, under the attachment limit (smaller
 * scales until it fits). Needs `img-src data: blob:` where the page sets a Content-Security-Policy.
 */
export async function takeScreenshot(exclude: Element): Promise<Blob> {
  // On demand: the library is larger than the widget, and most reports never take a screenshot.
  const { domToBlob } = await import('modern-screenshot');
  const ratio = Math.min(globalThis.devicePixelRatio || 1, 2);
  for (const scale of [ratio, ratio / 2, ratio / 4]) {
    const blob = await domToBlob(document.body, {
      type: 'image/jpeg',
      quality: 0.85,
      scale,
      backgroundColor: pageBackground(),
      filter: (node) => node !== exclude,
      // Embedding web fonts reads style sheets through a <style> of its own, which a strict CSP
      // blocks; the screenshot uses the fonts the browser has instead.
      font: false,
    });
    if (blob.size <= MAX_BYTES && blob.type === 'image/jpeg') return blob;
  }
  throw new Error('screenshot too large');
}

/** The page's background colour, white where it is transparent (a JPEG has no transparency). */
function pageBackground(): string {
  for (const el of [document.body, document.documentElement]) {
    const color = getComputedStyle(el).backgroundColor;
    if (color && color !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(color)) return color;
  }
  return '#ffffff';
}

/**
 * What a report carries besides its text: the page, and for a bug the app's release and the id of
 * the last error `@signpost/error-tracker` reported on this page (it leaves both in a global).
 */
export function reportContext(type: FeatureType, release: string | undefined): Record<string, unknown> {
  const url = typeof location !== 'undefined' ? location.href.split('#')[0] : undefined;
  const bridge = (globalThis as { __signpost?: { release?: string; lastErrorId?: string } }).__signpost ?? {};
  const appRelease = release ?? bridge.release;
  return {
    ...(url ? { url } : {}),
    ...(type === 'bug' && appRelease ? { release: appRelease } : {}),
    ...(type === 'bug' && bridge.lastErrorId ? { errorEventId: bridge.lastErrorId } : {}),
  };
}
