/**
 * Changelog descriptions are HTML written by a project's team and shown by apps and widgets.
 * They go through sanitize-html on every write with an allow-list: text formatting, lists,
 * links, images, code and tables. Scripts, styles, event handlers, iframes and `javascript:`
 * URLs are removed; links open safely.
 */
import type SanitizeHtml from 'sanitize-html';
import { lazyModule } from '../../kernel/lazy-module.ts';

const sanitizer = lazyModule<typeof SanitizeHtml>('sanitize-html', import.meta.url);

const OPTIONS: SanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'blockquote',
    'code',
    'pre',
    'kbd',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    code: ['class'],
    span: ['class'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/], span: [/^hl-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links leaving the page never get access to it.
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs['target'] === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

export function sanitizeDescription(html: string): string {
  return sanitizer()(html, OPTIONS).trim();
}
