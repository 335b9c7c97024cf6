import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
let lastTime = 0;
let sequence = 0;

function base36(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 36];
  return out;
}

/**
 * `<prefix>_<time><seq><random>`: ids created later sort later within one process, which
 * gives list orders a stable tie-break when two rows share a millisecond.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  sequence = now === lastTime ? sequence + 1 : 0;
  lastTime = now;
  const time = now.toString(36).padStart(9, '0');
  const seq = sequence.toString(36).padStart(3, '0');
  return `${prefix}_${time}${seq}${base36(randomBytes(10))}`;
}

export function randomToken(length: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  // Rejection sampling keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += chars[byte % 62];
    }
  }
  return out;
}

export const nowIso = (): string => new Date().toISOString();
