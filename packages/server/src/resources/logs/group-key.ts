/**
 * The 8-byte integer that log_groups is deduplicated on: the first 53 bits of the SHA-256 of the
 * group's project, environment and fingerprint, as a signed integer (SQLite INTEGER, PostgreSQL
 * BIGINT). The unique index is on this key alone.
 *
 * Why an integer: the unique index on (project_id, environment, fingerprint) held some 80 bytes
 * per group (40 hex characters of fingerprint, or whatever a client sends, up to 200), and every
 * new group is an insert at a random place in it; the key alone is 8 bytes, so the index is a
 * fraction of the size and a batch of new groups dirties fewer of its pages. Project and
 * environment are hashed in rather than kept as a prefix for the same reason. It is most of what
 * all-new log lines cost beyond a plain append (see the logs section of the server README).
 *
 * Why 53 bits and not 64: a key is an ordinary column, and both drivers read columns as JS
 * numbers. node:sqlite throws on any integer beyond 2^53 (a `SELECT *` of the table would fail),
 * and pg parses BIGINT to a number here (db/postgres.ts), which would round it. 53 bits is the
 * first 64 shifted right by 11, so PostgreSQL computes the same value in SQL.
 *
 * Two different groups may share a key. For n groups in the database the chance that any two do
 * is about n² / 2^54: 6·10⁻⁵ at a million groups, 0.5% at ten million. Such a pair must not be
 * merged, so every row keeps its project, environment and full fingerprint, and the upsert refuses
 * to count onto a row where any of them differs (store.ts); the second group then takes its next
 * free probe key, probe 1, 2, … (open addressing), where its later entries find it again by the
 * same probing. Each further probe meets a taken key with a chance of (groups / 2^53).
 */
import { hash } from 'node:crypto';

const TWO_POW_21 = 2 ** 21;

/**
 * `projectId` and `environment` never hold a line feed (ids and 'live' / 'test'), so the one
 * free-form part, last, cannot make two groups hash the same input.
 */
export function groupKey(projectId: string, environment: string, fingerprint: string, probe = 0): number {
  const group = `${projectId}\n${environment}\n${fingerprint}`;
  return keyOf(probe === 0 ? group : `${probe}\n${group}`);
}

function keyOf(input: string): number {
  const digest = hash('sha256', input, 'buffer');
  // The signed 64-bit prefix shifted right by 11, without BigInt: high word (signed) · 2^21 plus
  // the low word's top 21 bits.
  return digest.readInt32BE(0) * TWO_POW_21 + (digest.readUInt32BE(4) >>> 11);
}

/** Keys this process computed lately, per project and environment; emptied when full. */
const recent = new Map<string, Map<string, number>>();
const RECENT_MAX = 10_000;
let recentSize = 0;

/**
 * groupKey's first probe, remembered: a line that keeps coming back skips the hash, which was
 * the largest cost the key added to a batch of repeats (about 1 µs a group).
 */
export function recentGroupKey(projectId: string, environment: string, fingerprint: string): number {
  const scope = `${projectId}\n${environment}`;
  let keys = recent.get(scope);
  let key = keys?.get(fingerprint);
  if (key === undefined) {
    key = keyOf(`${scope}\n${fingerprint}`);
    if (recentSize >= RECENT_MAX) {
      recent.clear();
      recentSize = 0;
      keys = undefined;
    }
    if (!keys) {
      keys = new Map();
      recent.set(scope, keys);
    }
    keys.set(fingerprint, key);
    recentSize++;
  }
  return key;
}

/**
 * The first probe in PostgreSQL SQL, over a row's columns (the migration keys existing rows with
 * it). SQLite has no SHA-256 in SQL, so its rows are keyed in TypeScript.
 */
export const POSTGRES_GROUP_KEY_SQL = `(('x' || left(encode(sha256(convert_to(
  project_id || E'\\n' || environment || E'\\n' || fingerprint, 'UTF8')), 'hex'), 16))::bit(64)::bigint >> 11)`;
