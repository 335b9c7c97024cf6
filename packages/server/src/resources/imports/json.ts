/**
 * JSON files of the exports: a JSON array, an API answer holding the array under a key (Canny's
 * `{ "posts": [...], "hasMore": false }`), or JSON Lines (one object a line, `.jsonl`). All are
 * streamed (@streamparser/json, readline): one element at a time is in memory, whatever the size.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type * as StreamParser from '@streamparser/json';
import { lazyModule } from '../../kernel/lazy-module.ts';
import { badFile, ImportRowError, type Row, type Where } from './records.ts';

// Loaded by the first import, not at start.
const streamParser = lazyModule<typeof StreamParser>('@streamparser/json', import.meta.url);

export interface JsonItem {
  at: Where;
  row: Row;
}

/** The first character that is not white space (or a byte order mark): `[` or `{` for JSON. */
export async function firstCharacter(stream: Readable): Promise<string | undefined> {
  try {
    for await (const chunk of stream) {
      const found = /[^\s\uFEFF]/.exec(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
      if (found) return found[0];
    }
    return undefined;
  } finally {
    stream.destroy();
  }
}

function asItem(value: unknown, at: Where): JsonItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ImportRowError(at, '(item)', 'expected an object');
  }
  return { at, row: value as Row };
}

/**
 * The elements of the arrays at `paths` (`$` for a document that is the array, `$.posts` for an
 * answer holding it), streamed in the file's order: one element at a time is held, whatever the
 * file's size. Each names the path it was found at.
 */
export async function* streamArrays(
  stream: Readable,
  file: string,
  paths: readonly string[],
): AsyncGenerator<JsonItem & { path: string }> {
  const parser = new (streamParser().JSONParser)({ paths: paths.map((path) => `${path}.*`), keepStack: false });
  const found: (JsonItem & { path: string })[] = [];
  parser.onValue = ({ value, key, stack }) => {
    const parent = stack.slice(1).map((frame) => frame.key);
    const path = ['$', ...parent].join('.');
    const row = typeof key === 'number' ? key + 1 : found.length + 1;
    found.push({ ...asItem(value, { file, row }), path });
  };
  const problem = (error: unknown) =>
    error instanceof ImportRowError ? error : badFile(file, `is not valid JSON (${(error as Error).message})`);
  try {
    for await (const chunk of stream) {
      try {
        parser.write(chunk as Uint8Array);
      } catch (error) {
        throw problem(error);
      }
      yield* found.splice(0);
    }
    if (!parser.isEnded) {
      try {
        parser.end();
      } catch (error) {
        throw problem(error);
      }
    }
    yield* found.splice(0);
  } finally {
    stream.destroy();
  }
}

export function streamArray(stream: Readable, file: string, path: string): AsyncGenerator<JsonItem> {
  return streamArrays(stream, file, [path]);
}

/**
 * The items of one file of a dump, streamed: JSON Lines line by line, else the array the file is
 * or holds under `key`; refused naming the file when it is neither.
 */
export async function* jsonItems(open: () => Readable, file: string, key: string): AsyncGenerator<JsonItem> {
  if (/\.(jsonl|ndjson)$/i.test(file)) {
    yield* jsonLines(open(), file);
    return;
  }
  const first = await firstCharacter(open());
  if (first === '[') yield* streamArray(open(), file, '$');
  else if (first === '{') yield* streamArray(open(), file, `$.${key}`);
  else throw badFile(file, `expected a JSON array or an object with "${key}"`);
}

async function* jsonLines(stream: Readable, file: string): AsyncGenerator<JsonItem> {
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
}
