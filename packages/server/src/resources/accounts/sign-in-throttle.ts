/**
 * Sign-in throttling that slows password guessing without locking the owner out.
 *
 * Two buckets count failed sign-ins: one per client and account (the address tried), one per
 * client across every address. Each bucket lets a few failures through freely, then makes the
 * next attempt wait a delay that doubles with every further failure, up to a cap, and forgets
 * the failures after a quiet spell. The owner signing in from another client is never slowed by
 * an attacker's failures; from the same client, only until the (short) pair delay runs out. A
 * client spraying many addresses runs into its own budget.
 *
 * Kept in the database, so the count is exact across server processes: each attempt is claimed
 * in one transaction (a row lock on PostgreSQL, the write lock on SQLite) and counted as a
 * failure up front; a right password gives it back. So concurrent guesses cannot all slip
 * through before the first failure is written.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { forgetBucketsQuietSince, lockBucketRow, releaseBuckets, setBucketFailures } from './store-throttle.ts';

interface Policy {
  /** Failures let through without any delay. */
  free: number;
  /** The longest delay between attempts. */
  maxDelayMs: number;
  /** After this long without a failure the bucket starts afresh. */
  quietMs: number;
}

/** One client guessing one account: the owner behind the same address waits at most a minute. */
export const PAIR_POLICY: Policy = { free: 5, maxDelayMs: 60_000, quietMs: 15 * 60_000 };
/** One client across every account: generous for an office behind one address, not for a spray. */
export const CLIENT_POLICY: Policy = { free: 20, maxDelayMs: 5 * 60_000, quietMs: 60 * 60_000 };

export interface Claim {
  allowed: boolean;
  /** When refused: seconds until an attempt is accepted again. */
  retryAfterSeconds: number;
  /** The buckets this attempt counted in (give it back with `releaseAttempt` on success). */
  buckets: { pair: string; client: string };
}

/** The wait after `failures` failures: none within the free ones, then 1 s, 2 s, 4 s … up to the cap. */
export function delayAfter(policy: Policy, failures: number): number {
  if (failures <= policy.free) return 0;
  return Math.min(policy.maxDelayMs, 1000 * 2 ** Math.min(30, failures - policy.free - 1));
}

/**
 * The client a bucket is kept for: an IPv4 address as is (also when IPv4-mapped), an IPv6
 * address by its /64 network, since one host commonly holds a whole /64 and could rotate.
 */
export function clientOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function bucketsOf(ip: string, email: string) {
  const client = clientOf(ip);
  return { pair: `pair:${client}|${email}`, client: `client:${client}` };
}

/** The bucket's row, locked for this transaction; failures as they count now (0 once quiet). */
async function lockBucket(tx: Queryable, bucket: string, policy: Policy, now: number) {
  const row = await lockBucketRow(tx, bucket);
  const last = row.lastFailureAt;
  const failures = now - last > policy.quietMs ? 0 : row.failures;
  const delay = delayAfter(policy, failures);
  // No delay is no wait, even when another process wrote a later failure time than our clock's.
  return { failures, waitMs: delay === 0 ? 0 : last + delay - now };
}

/**
 * Claims a sign-in attempt for the client at `ip` (as the server sees it) on `email`
 * (normalised): refused while either bucket's delay runs, else counted as a failure now.
 */
export async function claimAttempt(db: Database, ip: string, email: string): Promise<Claim> {
  const buckets = bucketsOf(ip, email);
  let now = Date.now();
  const claim = await db.transaction(async (tx) => {
    // The clock is read inside the transaction, not before it queued: an attempt that waited
    // behind others must not judge their fresh failure times by the time it started waiting.
    now = Date.now();
    const pair = await lockBucket(tx, buckets.pair, PAIR_POLICY, now);
    const perClient = await lockBucket(tx, buckets.client, CLIENT_POLICY, now);
    const waitMs = Math.max(pair.waitMs, perClient.waitMs);
    if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000), buckets };
    await setBucketFailures(tx, buckets.pair, pair.failures + 1, now);
    await setBucketFailures(tx, buckets.client, perClient.failures + 1, now);
    return { allowed: true, retryAfterSeconds: 0, buckets };
  });
  // Now and then, forget buckets that have been quiet for a day.
  if (Math.random() < 0.01) await forgetBucketsQuietSince(db, now - 86_400_000);
  return claim;
}

/**
 * The password was right: the pair starts afresh, and the client's budget gets the attempt
 * back (it was counted as a failure when claimed).
 */
export async function releaseAttempt(db: Database, claim: Claim): Promise<void> {
  await releaseBuckets(db, claim.buckets.pair, claim.buckets.client);
}
