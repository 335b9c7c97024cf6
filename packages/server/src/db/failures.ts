/**
 * Database failures told apart portably (PostgreSQL SQLSTATE codes, SQLite result codes), and
 * the bounded retry that answers the transient ones.
 */
import { DatabaseUnavailableError } from '../kernel/errors.ts';

/** PostgreSQL's deadlock_detected and serialization_failure: the work may simply run again. */
const RETRYABLE_PG_CODES = new Set(['40P01', '40001']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A deadlock or serialisation failure: the database rolled the work back and it may run again. */
export function isRetryableConflict(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && RETRYABLE_PG_CODES.has(code);
}

/**
 * A write that refers to a row that is not there (PostgreSQL 23503, SQLite's FOREIGN KEY
 * constraint failed): under concurrency, a parent deleted between the check and the write.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (codeOf(error) === '23503') return true;
  return error instanceof Error && /FOREIGN KEY constraint failed/.test(error.message);
}

/** SQLite primary result codes (the low byte of an extended code), and extended ones. */
const SQLITE_TOOBIG = 18;
const SQLITE_CONSTRAINT = 19;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

function sqliteCodeOf(error: unknown): number | undefined {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' ? errcode : undefined;
}

/** Two writers created the same unique thing at once (PostgreSQL 23505, SQLite UNIQUE / PRIMARY KEY). */
export function isUniqueViolation(error: unknown): boolean {
  if (codeOf(error) === '23505') return true;
  const errcode = sqliteCodeOf(error);
  return errcode === SQLITE_CONSTRAINT_UNIQUE || errcode === SQLITE_CONSTRAINT_PRIMARYKEY;
}

/**
 * The database refused a value of the request itself: PostgreSQL data exceptions (class 22:
 * U+0000 in text, an unrepresentable number), program limits (class 54: nesting too deep),
 * check violations (23514); SQLite's too big and constraint failures. The request is at fault
 * (400), the server is not (500).
 */
export function isInputFault(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && /^(22|54)...$|^23514$/.test(code)) return true;
  const errcode = sqliteCodeOf(error);
  if (errcode === undefined) return false;
  const primary = errcode & 0xff;
  return (
    primary === SQLITE_TOOBIG ||
    (primary === SQLITE_CONSTRAINT && !isForeignKeyViolation(error) && !isUniqueViolation(error))
  );
}

/** SQLite primary result codes of a database that cannot work now (not of a bad request). */
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;
const SQLITE_UNAVAILABLE = new Set([SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN]);

/**
 * PostgreSQL's connection exceptions (class 08), shutdown and start-up (57P01–57P03), too many
 * connections and its disk full (class 53); the socket errors of a server gone or unreachable.
 */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53...)$/;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres says these in words only: a connection that ended, or never came. */
const PG_DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|Cannot use a pool after calling end/;

/** The disk under the database is full (SQLite's FULL, PostgreSQL's 53100, ENOSPC). */
export function isStorageFull(error: unknown): boolean {
  const code = codeOf(error);
  if (code === '53100' || code === 'ENOSPC') return true;
  const errcode = sqliteCodeOf(error);
  return errcode !== undefined && (errcode & 0xff) === SQLITE_FULL;
}

/** The database cannot be reached or cannot work now: a fault of the moment, not of the request. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isStorageFull(error)) return true;
  const code = codeOf(error);
  if (code !== undefined && (PG_UNAVAILABLE.test(code) || NETWORK_CODES.has(code))) return true;
  const errcode = sqliteCodeOf(error);
  if (errcode !== undefined) return SQLITE_UNAVAILABLE.has(errcode & 0xff);
  return error instanceof Error && PG_DRIVER_MESSAGES.test(error.message);
}

/**
 * What a database adapter throws: a fault of the moment becomes DatabaseUnavailableError (a 503
 * with Retry-After on every surface, never a 500), anything else stays as the driver threw it.
 */
export function classifyDatabaseError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || !isDatabaseUnavailable(error)) return error;
  return new DatabaseUnavailableError({ storageFull: isStorageFull(error), cause: error });
}

export const MAX_ATTEMPTS = 5;

/**
 * Runs `work` again after a deadlock or serialisation failure, up to MAX_ATTEMPTS times in all,
 * after a short random pause that grows with each attempt, so the transactions that collided do
 * not collide again in step. `work` must be safe to repeat: a whole transaction, rolled back.
 */
export async function retryConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableConflict(error)) throw error;
      const ceiling = 5 * 2 ** attempt;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}
