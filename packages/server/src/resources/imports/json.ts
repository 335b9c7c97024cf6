/**
 * JSON files of the exports: a JSON array, an API answer holding the array under a key (Canny's
 * `{ "posts": [...], "hasMore": false }`), or JSON Lines (one object a line, `.jsonl`), which is
 * read line by line and so takes any size in bounded memory.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { badFile, ImportRowError, type Row, type Where } from './records.ts';

export interface JsonItem {
  at: Where;
  row: Row;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
}

/** The whole document of a JSON file; refused naming the file when it is not JSON. */
export async function readJson(stream: Readable, file: string): Promise<unknown> {
  const textOf = await readAll(stream);
  try {
    return JSON.parse(textOf);
  } catch (error) {
    throw badFile(file, `is not valid JSON (${(error as Error).message})`);
  }
}

function asItem(value: unknown, at: Where): JsonItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ImportRowError(at, '(item)', 'expected an object');
  }
  return { at, row: value as Row };
}

/** The items of an array found in `document` as is or under `key`. */
export function itemsOf(document: unknown, key: string, file: string): JsonItem[] {
  const list = Array.isArray(document)
    ? document
    : document && typeof document === 'object'
      ? (document as Row)[key]
      : undefined;
  if (list === undefined && document && typeof document === 'object' && !Array.isArray(document)) return [];
  if (!Array.isArray(list)) throw badFile(file, `expected a JSON array or an object with "${key}"`);
  return list.map((value, index) => asItem(value, { file, row: index + 1 }));
}

/** The items of one file of a dump: JSON Lines streamed, else the array in the document. */
export async function* jsonItems(stream: Readable, file: string, key: string): AsyncGenerator<JsonItem> {
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    let row = 0;
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      row += 1;
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new ImportRowError({ file, row }, '(line)', `is not valid JSON (${(error as Error).message})`);
      }
      yield asItem(value, { file, row });
    }
    return;
  }
  yield* itemsOf(await readJson(stream, file), key, file);
}
