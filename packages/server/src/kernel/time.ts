export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The ISO-8601 time `ms` milliseconds after `from` (now). */
export function isoIn(ms: number, from = Date.now()): string {
  return new Date(from + ms).toISOString();
}
