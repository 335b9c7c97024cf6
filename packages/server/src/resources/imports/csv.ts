/**
 * CSV files of the exports, streamed row by row (csv-parse): each row as an object keyed by a
 * header name folded to lower case letters and digits (`Author Email`, `author_email` and
 * `authorEmail` are all `authoremail`), with its row number as a spreadsheet shows it (the header
 * is row 1). A row that does not parse is refused naming it.
 */
import type { Readable } from 'node:stream';
import type * as CsvParse from 'csv-parse';
import { lazyModule } from '../../kernel/lazy-module.ts';
import { clean, ImportRowError, type Row, type Where } from './records.ts';

// Loaded by the first import, not at start.
const csvParse = lazyModule<typeof CsvParse>('csv-parse', import.meta.url);

export function foldHeader(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export interface CsvRow {
  at: Where;
  row: Row;
  /** The header as written, for naming a column in an error. */
  header: readonly string[];
}

export async function* csvRows(stream: Readable, file: string): AsyncGenerator<CsvRow> {
  let header: string[] = [];
  const parser = stream.pipe(
    csvParse().parse({
      bom: true,
      skip_empty_lines: true,
      info: true,
      columns: (names: string[]) => {
        header = names;
        return names.map(foldHeader);
      },
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Row;
      info: { lines: number; records: number };
    }>) {
      yield { at: { file, row: info.records + 1 }, row: record, header };
    }
  } catch (error) {
    const problem = error as Error & { code?: string; lines?: number; records?: number };
    const row = (problem.records ?? 0) + 2;
    throw new ImportRowError({ file, row }, '(row)', problem.message.replace(/^Invalid Record Length: /, ''));
  } finally {
    stream.destroy();
  }
}

/** The first of these (folded) columns the row has a value in. */
export function pick(row: Row, ...columns: string[]): string | undefined {
  for (const column of columns) {
    const value = row[column];
    if (typeof value === 'string' && clean(value)) return clean(value);
  }
  return undefined;
}
