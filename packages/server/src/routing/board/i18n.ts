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

const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * A date as Intl.DateTimeFormat's `dateStyle: 'medium'` writes it in UTC ("Nov 30, 2026",
 * "30.11.2026"), by hand: the board's two locales need a month table and an order, and the first
 * Intl date or number format of a process touches about 8 MB of ICU's code and data, resident
 * until it ends (issue 37: the server's RSS at rest; measured in a bare Node 24, 41 → 49 MB).
 * `test/board/dates.test.ts` compares every day of two years with Intl's own output.
 */
export function formatDate(locale: BoardLocale, iso: string): string {
  const date = new Date(iso);
  const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
  return locale === 'de' ? `${twoDigits(day)}.${twoDigits(month + 1)}.${year}` : `${EN_MONTHS[month]} ${day}, ${year}`;
}

export type { MessageKey };
