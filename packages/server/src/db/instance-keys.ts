/**
 * The store of instance_keys: the server's own key when SECRET_KEY is not set, made once by the
 * first process that asks and read by all the others sharing the database.
 */
import type { Database } from './database.ts';
import { randomBytes } from 'node:crypto';

const SERVER_KEY = 'server';

export async function serverKey(db: Database, configured: string | undefined): Promise<string> {
  if (configured) return configured;
  const made = randomBytes(32).toString('base64url');
  await db.run('INSERT INTO instance_keys (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [
    SERVER_KEY,
    made,
    new Date().toISOString(),
  ]);
  const row = await db.get<{ value: string }>('SELECT value FROM instance_keys WHERE name = ?', [SERVER_KEY]);
  return row!.value;
}
