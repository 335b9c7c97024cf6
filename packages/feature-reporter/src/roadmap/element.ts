import { ApiError, createTransport, type ErrorHandler, type FetchLike, type Transport } from '@signpost/sdk-core';
import type { Roadmap, VoteState } from '../types.js';
import { EMBED_BASE_CSS, escapeHtml as esc, styleTag } from '../updates/theme.js';
import { embedLanguage } from '../updates/texts.js';
import { anonymousVoterId } from '../voter.js';
import { ROADMAP_TEXTS_DE, ROADMAP_TEXTS_EN, type RoadmapTexts } from './texts.js';

/** Settings of `<signpost-roadmap>`, as properties (`configure`) or attributes. */
export interface RoadmapOptions {
  /** A publishable key: `features:read` shows the roadmap, `features:write` lets readers vote (attribute `api-key`). */
  apiKey?: string;
  /** The public API base URL (attribute `base-url`). */
  baseUrl?: string;
  /** The columns, in order (attribute `status`, comma-separated); default planned, in-progress, done. */
  status?: string[];
  /** Offer vote buttons (attribute `voting`); they go away if the key may not vote. */
  voting?: boolean;
  /** Your user id for votes (attribute `voter-id`); default an anonymous id kept in localStorage. */
  voterId?: string;
  nonce?: string;
  texts?: Partial<RoadmapTexts>;
  onError?: ErrorHandler;
  fetch?: FetchLike;
}

export interface RoadmapElement extends HTMLElement {
  configure(options: RoadmapOptions): void;
  refresh(): Promise<void>;
}

const STYLES = `${EMBED_BASE_CSS}
:host{display:block;padding:16px;border-radius:var(--_radius);background:var(--_bg)}
h2{margin:0 0 12px;font-size:1.2rem}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:14px}
section{border:1px solid var(--_border);border-radius:var(--_radius);background:var(--_bg);padding:12px 14px}
h3{margin:0 0 8px;font-size:1rem}
ul{list-style:none;margin:0;padding:0}
li{display:flex;justify-content:space-between;align-items:center;gap:10px;padding:8px 0;border-top:1px solid var(--_border)}
.n,.muted{color:var(--_muted)}
.v{min-width:3.2em;padding:.3em .6em;border:1px solid var(--_border);border-radius:8px;background:var(--_bg);font-weight:600}
.v[aria-pressed="true"]{background:var(--_accent);border-color:var(--_accent);color:var(--_accent-fg)}`;

const VOTED = 'signpost.roadmap.voted';
let counter = 0;

function votedIds(): Set<string> {
  try {
    return new Set(JSON.parse(globalThis.localStorage?.getItem(VOTED) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

export function createRoadmapClass(): { new (): RoadmapElement } {
  return class SignpostRoadmap extends HTMLElement implements RoadmapElement {
    static get observedAttributes() {
      return ['api-key', 'base-url', 'status', 'voting', 'lang'];
    }

    private _o: RoadmapOptions = {};
    private _root = this.attachShadow({ mode: 'open' });
    private _id = `spr${++counter}`;
    private _data: Roadmap | undefined;
    private _failed = false;
    private _mayVote = true;
    private _voted = votedIds();
    private _transport: Transport | undefined;

    connectedCallback() {
      void this.refresh();
    }

    attributeChangedCallback() {
      this._transport = undefined;
      if (this.isConnected) void this.refresh();
    }

    configure(options: RoadmapOptions) {
      this._o = { ...this._o, ...options, texts: { ...this._o.texts, ...options.texts } };
      this._transport = undefined;
      if (this.isConnected) void this.refresh();
    }

    private get _t(): RoadmapTexts {
      const base = embedLanguage(this) === 'de' ? ROADMAP_TEXTS_DE : ROADMAP_TEXTS_EN;
      return { ...base, ...this._o.texts, status: { ...base.status, ...this._o.texts?.status } };
    }

    private _client(): Transport | undefined {
      const apiKey = this._o.apiKey ?? this.getAttribute('api-key');
      if (!apiKey) return undefined;
      const baseUrl = this._o.baseUrl ?? this.getAttribute('base-url');
      this._transport ??= createTransport({
        apiKey,
        maxRetries: 2,
        ...(baseUrl ? { baseUrl } : {}),
        ...(this._o.fetch ? { fetch: this._o.fetch } : {}),
      });
      return this._transport;
    }

    private _fail(error: unknown) {
      (this._o.onError ?? ((e: unknown) => console.warn('signpost-roadmap:', e)))(error);
      this.dispatchEvent(
        new CustomEvent('signpost-roadmap-error', { detail: { error }, bubbles: true, composed: true }),
      );
    }

    private _statuses(): string[] {
      return (
        this._o.status ??
        (this.getAttribute('status') || 'planned,in-progress,done')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      );
    }

    async refresh() {
      const client = this._client();
      if (!client) return this._paint();
      try {
        this._data = (
          await client.request<Roadmap>('GET', '/roadmap', { query: { status: this._statuses().join(',') } })
        ).data;
        this._failed = false;
      } catch (error) {
        this._failed = true;
        this._fail(error);
      }
      this._paint();
    }

    private _voting() {
      return this._mayVote && (this._o.voting ?? this.hasAttribute('voting'));
    }

    private _paint() {
      const t = this._t;
      const data = this._data;
      const voting = this._voting();
      const body = !data
        ? this._failed
          ? `<p class="muted" role="alert">${esc(t.failed)}</p>`
          : ''
        : `<div class="cols">${data.columns
            .map(
              (column, i) =>
                `<section part="column" aria-labelledby="${this._id}-c${i}"><h3 id="${this._id}-c${i}">${esc(
                  t.status[column.status] ?? column.status,
                )} <span class="n">(${column.items.length})</span></h3>${
                  column.items.length
                    ? `<ul>${column.items
                        .map(
                          (item) =>
                            `<li part="item"><span>${esc(item.title)}</span>${
                              voting
                                ? `<button class="v" part="vote" type="button" data-id="${esc(item.id)}" aria-pressed="${this._voted.has(item.id)}" aria-label="${esc(
                                    t.vote.replace('{title}', item.title),
                                  )}, ${esc(t.votes.replace('{n}', String(item.voteCount)))}">▲ ${item.voteCount}</button>`
                                : `<span class="n">${esc(t.votes.replace('{n}', String(item.voteCount)))}</span>`
                            }</li>`,
                        )
                        .join('')}</ul>`
                    : `<p class="muted">${esc(t.empty)}</p>`
                }</section>`,
            )
            .join('')}</div>`;
      this._root.innerHTML = `${styleTag(this, STYLES, this._o.nonce)}<h2 part="heading">${esc(t.heading)}</h2>${body}`;
      for (const button of this._root.querySelectorAll<HTMLButtonElement>('.v'))
        button.addEventListener('click', () => void this._vote(button.dataset['id']!));
    }

    private async _vote(id: string) {
      const client = this._client();
      if (!client) return;
      const voter = this._o.voterId ?? this.getAttribute('voter-id') ?? anonymousVoterId();
      const voted = this._voted.has(id);
      try {
        const { data } = await client.request<VoteState>(
          voted ? 'DELETE' : 'PUT',
          `/features/${encodeURIComponent(id)}/votes/${encodeURIComponent(voter)}`,
        );
        if (data.voted) this._voted.add(id);
        else this._voted.delete(id);
        try {
          globalThis.localStorage?.setItem(VOTED, JSON.stringify([...this._voted]));
        } catch {
          // Not kept: the button forgets after a reload.
        }
        for (const column of this._data?.columns ?? [])
          for (const item of column.items) if (item.id === id) item.voteCount = data.voteCount;
      } catch (error) {
        // The key may read but not vote (no features:write): show counts only.
        if (error instanceof ApiError && error.status === 403) this._mayVote = false;
        this._fail(error);
      }
      this._paint();
      this._root.querySelector<HTMLElement>(`.v[data-id="${CSS.escape(id)}"]`)?.focus();
    }
  };
}
