import { clip, toJsonSafe } from '@signpost/sdk-core';
import type { Breadcrumb } from './types.js';

/** The API takes at most 50 breadcrumbs per report. */
export const MAX_BREADCRUMBS = 50;

/** Keeps the newest breadcrumbs, at most `max` (≤ 50). */
export class BreadcrumbBuffer {
  private items: Breadcrumb[] = [];
  private readonly max: number;

  constructor(max = MAX_BREADCRUMBS) {
    this.max = Math.max(0, Math.min(MAX_BREADCRUMBS, max));
  }

  add(crumb: Breadcrumb): void {
    if (this.max === 0) return;
    const item: Breadcrumb = {
      timestamp: crumb.timestamp ?? new Date().toISOString(),
      type: crumb.type,
      message: clip(String(crumb.message ?? ''), 2000),
    };
    if (crumb.category) item.category = clip(crumb.category, 200);
    if (crumb.level) item.level = clip(crumb.level, 50);
    if (crumb.data)
      item.data = toJsonSafe(crumb.data, { maxDepth: 3, maxStringLength: 500 }) as Record<string, unknown>;
    this.items.push(item);
    if (this.items.length > this.max) this.items.splice(0, this.items.length - this.max);
  }

  /** A copy, oldest first. */
  list(): Breadcrumb[] {
    return this.items.slice();
  }

  clear(): void {
    this.items = [];
  }
}

interface ElementLike {
  tagName?: string;
  id?: string;
  classList?: ArrayLike<string>;
  getAttribute?(name: string): string | null;
  parentElement?: ElementLike | null;
}

/**
 * A short CSS-like selector for an element, at most 80 characters: tag, id, up to two classes,
 * and `aria-label`, `name`, `type`, `role` attributes. Never the element's value or text.
 */
export function describeElement(el: ElementLike | null | undefined, max = 80): string {
  if (!el?.tagName) return '(unknown)';
  let out = el.tagName.toLowerCase();
  if (el.id) out += `#${el.id}`;
  const classes = el.classList ? Array.from(el.classList).slice(0, 2) : [];
  for (const c of classes) out += `.${c}`;
  for (const attr of ['name', 'type', 'role', 'aria-label']) {
    const value = el.getAttribute?.(attr);
    if (value) out += `[${attr}="${clip(value, 30)}"]`;
  }
  return out.length <= max ? out : `${out.slice(0, max - 1)}…`;
}
