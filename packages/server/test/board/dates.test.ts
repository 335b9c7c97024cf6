/**
 * The board writes its dates by hand (src/routing/board/i18n.ts says why): each must read as
 * Intl.DateTimeFormat's `dateStyle: 'medium'` in UTC writes it, in each of the board's locales.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOARD_LOCALES, formatDate } from '../../src/routing/board/i18n.ts';

const DAY = 86_400_000;

test("every day of two years reads as Intl's medium date, in every board locale", () => {
  for (const locale of BOARD_LOCALES) {
    const intl = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    // 2027 is a common year, 2028 a leap year; each day at a minute before midnight UTC, where a
    // format in another time zone would already show the next day.
    for (let time = Date.UTC(2027, 0, 1, 23, 59); time < Date.UTC(2029, 0, 1); time += DAY) {
      const iso = new Date(time).toISOString();
      assert.equal(formatDate(locale, iso), intl.format(new Date(iso)), `${locale} ${iso}`);
    }
  }
});

test('a date written with an offset or without a time reads as its UTC day', () => {
  assert.equal(formatDate('en', '2026-11-30T23:30:00-02:00'), 'Dec 1, 2026');
  assert.equal(formatDate('de', '2026-03-04'), '04.03.2026');
});
