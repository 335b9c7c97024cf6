/**
 * What every format reads its export into: people, ideas, votes and comments of the source, each
 * with the place it came from (file and row) so a problem names it. Formats yield them in the
 * order they may be applied: a vote or comment after its idea, a person before what they wrote.
 */
import { BadRequestError } from '../../kernel/errors.ts';

export interface Where {
  file: string;
  /** 1-based: the data row of a CSV (the header is row 1, so the first data row is 2), the index + 1 of a JSON array. */
  row: number;
}

export interface SourcePerson {
  id?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
}

export type ImportRecord =
  | {
      kind: 'user';
      at: Where;
      id: string;
      email?: string | undefined;
      name?: string | undefined;
      createdAt?: string | undefined;
    }
  | {
      kind: 'idea';
      at: Where;
      id: string;
      title: string;
      description: string;
      /** The source's own status name, mapped by the status table. */
      status: string;
      type?: 'feature' | 'bug' | undefined;
      author?: SourcePerson | undefined;
      board?: string | undefined;
      createdAt?: string | undefined;
    }
  | { kind: 'vote'; at: Where; ideaId: string; voter: SourcePerson; createdAt?: string | undefined }
  | {
      kind: 'comment';
      at: Where;
      id: string;
      ideaId: string;
      body: string;
      author?: SourcePerson | undefined;
      internal?: boolean | undefined;
      createdAt?: string | undefined;
    };

/** A row the import cannot read: names the file, row and column; nothing is stored. */
export class ImportRowError extends BadRequestError {
  constructor(at: Where, column: string, problem: string) {
    super(`${at.file} row ${at.row}, column "${column}": ${problem}`, [
      { field: `${at.file}:${at.row}:${column}`, message: problem },
    ]);
  }
}

/** The whole file is not what the source exports. */
export function badFile(file: string, problem: string): BadRequestError {
  return new BadRequestError(`${file}: ${problem}`, [{ field: file, message: problem }]);
}

export type Row = Record<string, unknown>;

/**
 * Text as the databases store it: no U+0000 (PostgreSQL refuses it) and no lone surrogate (a
 * JSON escape may carry one), trimmed.
 */
export function clean(value: string): string {
  return value.replaceAll('\u0000', '').toWellFormed().trim();
}

/** A text field, trimmed; undefined when absent or empty. */
export function text(row: Row, column: string): string | undefined {
  const value = row[column];
  if (value === undefined || value === null) return undefined;
  const raw = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  const out = raw === undefined ? undefined : clean(raw);
  return out ? out : undefined;
}

/** A required text field: an ImportRowError naming the column when absent. */
export function required(row: Row, column: string, at: Where): string {
  const value = row[column];
  if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number') {
    throw new ImportRowError(at, column, `expected text, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  }
  const out = text(row, column);
  if (out === undefined) throw new ImportRowError(at, column, 'is missing or empty');
  return out;
}

/**
 * A date in any form the sources write (ISO 8601, `2025-07-21 03:37:03` in UTC, epoch seconds or
 * milliseconds) as ISO 8601; undefined when absent; an ImportRowError when unreadable.
 */
export function date(row: Row, column: string, at: Where): string | undefined {
  const value = row[column];
  if (value === undefined || value === null || value === '') return undefined;
  let parsed: Date;
  if (typeof value === 'number') parsed = new Date(value < 1e11 ? value * 1000 : value);
  else if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^\d+$/.test(trimmed)) {
      const n = Number(trimmed);
      parsed = new Date(n < 1e11 ? n * 1000 : n);
    } else if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(trimmed))
      parsed = new Date(`${trimmed.replace(' ', 'T')}Z`);
    else parsed = new Date(trimmed);
  } else throw new ImportRowError(at, column, 'expected a date');
  if (Number.isNaN(parsed.getTime()))
    throw new ImportRowError(at, column, `"${String(value).slice(0, 40)}" is not a date`);
  return parsed.toISOString();
}

/** An object field (a JSON export's nested author or post); undefined when absent. */
export function object(row: Row, column: string, at: Where): Row | undefined {
  const value = row[column];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ImportRowError(at, column, 'expected an object');
  return value as Row;
}

export function person(row: Row | undefined): SourcePerson | undefined {
  if (!row) return undefined;
  const out = { id: text(row, 'id'), email: text(row, 'email'), name: text(row, 'name') };
  return out.id || out.email || out.name ? out : undefined;
}
