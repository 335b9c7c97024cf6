/**
 * The board's language: `?lang=` (the switcher, remembered in a cookie), else the cookie, else
 * the browser's Accept-Language, else English. Texts come from messages/<locale>.ts.
 */
import Negotiator from 'negotiator';
import type { IncomingHttpHeaders } from 'node:http';
import { de } from './messages/de.ts';
import { type Catalog, en, type MessageKey } from './messages/en.ts';

export const BOARD_LOCALES = ['en', 'de'] as const;
export type BoardLocale = (typeof BOARD_LOCALES)[number];
export const LOCALE_NAMES: Record<BoardLocale, string> = { en: 'English', de: 'Deutsch' };
export const LOCALE_COOKIE = 'signpost_board_lang';

const catalogs: Record<BoardLocale, Catalog> = { en, de };

export function isBoardLocale(value: unknown): value is BoardLocale {
  return typeof value === 'string' && (BOARD_LOCALES as readonly string[]).includes(value);
}

export function negotiateLocale(headers: IncomingHttpHeaders, chosen: string | undefined): BoardLocale {
  if (isBoardLocale(chosen)) return chosen;
  const preferred = new Negotiator({ headers }).language([...BOARD_LOCALES]);
  return isBoardLocale(preferred) ? preferred : 'en';
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** `t('ideas.votes', { count })` picks the `.one` form for a count of 1 when the catalog has it. */
export function translator(locale: BoardLocale): Translate {
  const catalog = catalogs[locale];
  return (key, values) => {
    const singular = `${key}.one` as MessageKey;
    const text = values?.['count'] === 1 && singular in catalog ? catalog[singular] : catalog[key];
    return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole)) : text;
  };
}

// Making an Intl.DateTimeFormat costs about 40 µs (measured: most of an ideas page's time when
// made per date); one per locale, made on its first date, not at start: each locale's format
// loads that locale's ICU data, and all of them at start held several MB of an idle server.
const dateFormats: Partial<Record<BoardLocale, Intl.DateTimeFormat>> = {};

export function formatDate(locale: BoardLocale, iso: string): string {
  let format = dateFormats[locale];
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    dateFormats[locale] = format;
  }
  return format.format(new Date(iso));
}

export type { MessageKey };
