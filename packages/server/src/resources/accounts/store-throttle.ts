/** The rows of `sign_in_throttle`: one per bucket, its failures and the time of the last (ms). The rules: sign-in-throttle.ts. */
import type { Database, Queryable } from '../../db/database.ts';

interface Row {
  failures: number | string;
  last_failure_at: number | string;
}

/** The bucket's row, created if missing and locked for the rest of the transaction. */
export async function lockBucketRow(
  tx: Queryable,
  bucket: string,
): Promise<{ failures: number; lastFailureAt: number }> {
  await tx.run(
    `INSERT INTO sign_in_throttle (bucket, failures, last_failure_at) VALUES (?, 0, 0)
     ON CONFLICT (bucket) DO UPDATE SET failures = sign_in_throttle.failures`,
    [bucket],
  );
  const row = (await tx.get<Row>('SELECT failures, last_failure_at FROM sign_in_throttle WHERE bucket = ?', [bucket]))!;
  return { failures: Number(row.failures), lastFailureAt: Number(row.last_failure_at) };
}

export async function setBucketFailures(tx: Queryable, bucket: string, failures: number, at: number): Promise<void> {
  await tx.run('UPDATE sign_in_throttle SET failures = ?, last_failure_at = ? WHERE bucket = ?', [
    failures,
    at,
    bucket,
  ]);
}

export async function forgetBucketsQuietSince(db: Queryable, before: number): Promise<void> {
  await db.run('DELETE FROM sign_in_throttle WHERE last_failure_at < ?', [before]);
}

/** A right password: the pair bucket goes, the client bucket gets the attempt back. */
export async function releaseBuckets(db: Database, pair: string, client: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM sign_in_throttle WHERE bucket = ?', [pair]);
    await tx.run('UPDATE sign_in_throttle SET failures = failures - 1 WHERE bucket = ? AND failures > 0', [client]);
  });
}
