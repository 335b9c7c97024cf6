/**
 * Where an export is read from: one file (a CSV, a JSON dump), a directory of files, or a zip of
 * them (a Fider backup, a Canny dump zipped for upload). Every file is opened as a stream when a
 * format reads it, once per pass; a zip's entries are inflated one at a time, only when opened.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import type * as Fflate from 'fflate';
import { lazyModule } from '../../kernel/lazy-module.ts';
import { BadRequestError } from '../../kernel/errors.ts';

// Loaded on first use (an upload, an import, a backup), not at start.
const fflate = lazyModule<typeof Fflate>('fflate', import.meta.url);

export interface ImportInput {
  /** The files in it, by path inside it (a lone file: its own name). */
  readonly names: readonly string[];
  open(name: string): Readable;
}

/** The file whose base name (case-insensitive, without folders) is one of `wanted`. */
export function findFile(input: ImportInput, ...wanted: string[]): string | undefined {
  const lower = wanted.map((name) => name.toLowerCase());
  return input.names.find((name) => lower.includes(basename(name).toLowerCase()));
}

async function isZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  } finally {
    await handle.close();
  }
}

async function listFiles(dir: string, root = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path, root)));
    else if (entry.isFile()) out.push(relative(root, path));
  }
  return out.sort();
}

/** Opens a path (file, directory or zip); `name` names a lone file (an upload has none of its own). */
export async function openInput(path: string, name = basename(path)): Promise<ImportInput> {
  const info = await stat(path);
  if (info.isDirectory()) {
    const names = await listFiles(path);
    return { names, open: (file) => createReadStream(join(path, file)) };
  }
  if (info.size > 0 && (await isZip(path))) return zipInput(await readFile(path));
  return { names: [name], open: () => createReadStream(path) };
}

function zipInput(zip: Uint8Array): ImportInput {
  const names: string[] = [];
  try {
    // A filter that takes nothing lists the entries without inflating any.
    fflate().unzipSync(zip, {
      filter: (file) => {
        if (!file.name.endsWith('/')) names.push(file.name);
        return false;
      },
    });
  } catch (error) {
    throw new BadRequestError(`The zip file cannot be read: ${(error as Error).message}`);
  }
  names.sort();
  return {
    names,
    open: (name) => {
      let entry: Uint8Array | undefined;
      try {
        entry = fflate().unzipSync(zip, { filter: (file) => file.name === name })[name];
      } catch (error) {
        throw new BadRequestError(`${name} in the zip file cannot be read: ${(error as Error).message}`);
      }
      return Readable.from(entry ? [Buffer.from(entry)] : []);
    },
  };
}
