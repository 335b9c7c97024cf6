/**
 * Orders of text without ICU. `localeCompare`'s first call loads ICU's collator, about 3 MB
 * resident until the process ends (issue 37's bound on the server's memory at rest), and the
 * server's sorts need no language's rules: machine text (keys, locale codes, tie-breaks) in
 * code-unit order, names people read ignoring case. Where a list is read in a language, the
 * dashboard sorts it in the browser with the reader's locale.
 */

/** Code-unit order, as SQLite's BINARY and PostgreSQL's "C" collation sort: the same on both databases. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Names people read ("duplicate" before "Needs Triage"): case ignored, then code-unit order. */
export function compareNames(a: string, b: string): number {
  return compareText(a.toLowerCase(), b.toLowerCase()) || compareText(a, b);
}
