import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
let lastTime = 0;
let sequence = 0;

// Random bytes are drawn in blocks: one randomBytes call per id showed up in write-heavy profiles.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function randomBase36(length: number): string {
  if (poolOffset + length > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[pool[poolOffset + i]! % 36];
  poolOffset += length;
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
  return `${prefix}_${time}${seq}${randomBase36(10)}`;
}

/**
 * The least id newId(prefix) makes at `time` or later: ids of a prefix sort as the times they
 * were made (by their process's clock), so `id >= idFloor(prefix, t)` holds every id made from t on.
 */
export function idFloor(prefix: string, time: number): string {
  return `${prefix}_${Math.max(0, Math.trunc(time)).toString(36).padStart(9, '0')}`;
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
