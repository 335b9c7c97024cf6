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

/** A tag of the source on one idea, by name. */
export interface IdeaTag {
  name: string;
  /** `#rrggbb`, for a tag the import makes. */
  color?: string | undefined;
  /** Seen only by the source's team: left out, tags here are public. */
  private?: boolean | undefined;
}

export interface SourcePerson {
  id?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
}

export type ImportRecord =
  | {
      /**
       * A board or tag of the source (Canny's boards, Fider's tags): becomes a tag of the project,
       * found by name (an existing tag is used as it is), else made with the source's colour.
       */
      kind: 'board';
      at: Where;
      id: string;
      name: string;
      /** `#rrggbb`, for a tag the import makes. */
      color?: string | undefined;
      /** Seen only by the source's team (Fider's `is_public: false`): left out, tags here are public. */
      private?: boolean | undefined;
    }
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
      /** The board's name (Canny's board, UserVoice's forum, Featurebase's category); its tag. */
      board?: string | undefined;
      /** A category within the board (Canny's and UserVoice's categories); a second tag. */
      category?: string | undefined;
      /** The board's source id, when the export names it (a board record of that id gives the name). */
      boardId?: string | undefined;
      /** Tags or labels the source put on the idea itself (Featurebase's postTags, UserVoice's labels): a tag each. */
      tags?: IdeaTag[] | undefined;
      createdAt?: string | undefined;
    }
  | { kind: 'vote'; at: Where; ideaId: string; voter: SourcePerson; createdAt?: string | undefined }
  | {
      /** A tag the source put on an idea (Fider's post_tags), after the idea and the tag's board record. */
      kind: 'idea-tag';
      at: Where;
      ideaId: string;
      /** The source id of the tag: a board record's id. */
      boardId: string;
    }
  | {
      kind: 'comment';
      at: Where;
      id: string;
      ideaId: string;
      body: string;
      author?: SourcePerson | undefined;
      internal?: boolean | undefined;
      createdAt?: string | undefined;
    }
  | {
      /** A changelog entry of the source (Canny's changelog/list), after the ideas it links. */
      kind: 'entry';
      at: Where;
      id: string;
      title: string;
      /** Already HTML (sanitised again on write). */
      description: string;
      /** new, improved or fixed. */
      statusKey: 'new' | 'improved' | 'fixed';
      published: boolean;
      publishedAt?: string | undefined;
      /** A draft's scheduled time in the source. */
      scheduledFor?: string | undefined;
      createdAt?: string | undefined;
      /** The source ids of the ideas it tells about, in order. */
      ideaIds: string[];
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

/** A colour as the tags keep it (`#rrggbb`, lower case) from `#RRGGBB` or `RRGGBB`; undefined otherwise. */
export function hexColor(value: string | undefined): string | undefined {
  const match = value ? /^#?([0-9a-f]{6})$/i.exec(value.trim()) : null;
  return match ? `#${match[1]!.toLowerCase()}` : undefined;
}

export function person(row: Row | undefined): SourcePerson | undefined {
  if (!row) return undefined;
  const out = { id: text(row, 'id'), email: text(row, 'email'), name: text(row, 'name') };
  return out.id || out.email || out.name ? out : undefined;
}

/** Names in one text cell, comma-separated (`Mobile, Security`), each trimmed, empty ones dropped. */
export function nameList(value: string | undefined): IdeaTag[] | undefined {
  const names = value
    ?.split(',')
    .map(clean)
    .filter((name) => name !== '');
  return names?.length ? names.map((name) => ({ name })) : undefined;
}
