import { join } from 'node:path';
import type { Database } from './database.ts';
import { PostgresDatabase } from './postgres.ts';
import { SqliteDatabase } from './sqlite.ts';

/** PostgreSQL for a postgres:// URL, otherwise SQLite in the data directory (or at a sqlite: path). */
export function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  sqliteCheckpointPages?: number;
  sqliteReadWorkers?: number;
  sqliteWorkerNice?: number;
  /** SQLite: a read worker idle this long ends (the server's rest period; 0: only at rest). */
  memoryRestSeconds?: number;
  /** PostgreSQL: whether telemetry transactions may commit without waiting for the disk (TransactionOptions). */
  ingestDurability?: 'full' | 'relaxed';
}): Database {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url))
    return new PostgresDatabase(url, options.ingestDurability ? { ingestDurability: options.ingestDurability } : {});
  const sqlite = {
    checkpointPages: options.sqliteCheckpointPages,
    readWorkers: options.sqliteReadWorkers,
    workerNice: options.sqliteWorkerNice,
    workerIdleMs: options.memoryRestSeconds === undefined ? undefined : options.memoryRestSeconds * 1000,
  };
  if (url?.startsWith('sqlite:')) return new SqliteDatabase(url.slice('sqlite:'.length), sqlite);
  return new SqliteDatabase(join(options.dataDir, 'signpost.db'), sqlite);
}
