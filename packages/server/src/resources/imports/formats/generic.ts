/**
 * Any CSV of ideas, with a column mapping: which header holds each field (`title=Summary`,
 * `description=Body`, …). Unmapped fields are looked for under their own name. Fields: id, title
 * (required), description, status, type (feature or bug), authorEmail, authorName, createdAt,
 * voters (e-mails separated by commas or semicolons). Without an id the title keeps ideas apart.
 */
import { csvRows, foldHeader } from '../csv.ts';
import type { ImportInput } from '../input.ts';
import { date, ImportRowError, person, text, type ImportRecord } from '../records.ts';
import { splitList } from './canny.ts';

export const GENERIC_FIELDS = [
  'id',
  'title',
  'description',
  'status',
  'type',
  'authorEmail',
  'authorName',
  'createdAt',
  'voters',
] as const;
export type GenericField = (typeof GENERIC_FIELDS)[number];

export async function* readGenericCsv(
  input: ImportInput,
  columns: Partial<Record<GenericField, string>>,
): AsyncGenerator<ImportRecord> {
  const file = input.names.find((name) => /\.csv$/i.test(name)) ?? input.names[0]!;
  const column = (field: GenericField) => foldHeader(columns[field] ?? field);
  const shown = (field: GenericField) => columns[field] ?? field;
  let checked = false;
  for await (const { at, row, header } of csvRows(input.open(file), file)) {
    if (!checked) {
      checked = true;
      const folded = header.map(foldHeader);
      for (const [field, name] of Object.entries(columns)) {
        if (!folded.includes(foldHeader(name))) {
          throw new ImportRowError(
            { file, row: 1 },
            name,
            `the mapping names this column for ${field}, the header has no such column`,
          );
        }
      }
      if (!folded.includes(column('title')))
        throw new ImportRowError({ file, row: 1 }, shown('title'), 'no such column: map title=<column>');
    }
    const title = text(row, column('title'));
    if (!title) throw new ImportRowError(at, shown('title'), 'is missing or empty');
    const type = text(row, column('type'))?.toLowerCase();
    if (type !== undefined && type !== 'feature' && type !== 'bug') {
      throw new ImportRowError(at, shown('type'), `"${type.slice(0, 20)}" is not feature or bug`);
    }
    const id = text(row, column('id')) ?? `title:${title.toLowerCase()}`;
    let createdAt: string | undefined;
    try {
      createdAt = date(row, column('createdAt'), at);
    } catch {
      throw new ImportRowError(
        at,
        shown('createdAt'),
        `"${String(row[column('createdAt')]).slice(0, 40)}" is not a date`,
      );
    }
    yield {
      kind: 'idea',
      at,
      id,
      title,
      description: text(row, column('description')) ?? '',
      status: text(row, column('status')) ?? 'open',
      type,
      author: person({ email: text(row, column('authorEmail')), name: text(row, column('authorName')) }),
      createdAt,
    };
    for (const email of splitList(text(row, column('voters'))))
      yield { kind: 'vote', at, ideaId: id, voter: { email } };
  }
}
