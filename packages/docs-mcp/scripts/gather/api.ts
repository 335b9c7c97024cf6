import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import type { ApiReference, DeclarationFile } from '../../src/content.ts';

const MAX_TOTAL_CHARS = 200_000;

/**
 * The package's public API as TypeScript declarations: its built `dist/*.d.ts` when they are at least
 * as new as its sources, otherwise declarations emitted in memory from `src/` with the TypeScript
 * compiler (nothing is written to the package), otherwise the source of `src/index.ts`.
 */
export function gatherApi(packageDir: string, npmName: string, pkgJson: Record<string, unknown>): ApiReference {
  const distDir = join(packageDir, 'dist');
  const srcDir = join(packageDir, 'src');
  const dts = listFiles(distDir, (f) => f.endsWith('.d.ts'));
  const sources = listFiles(srcDir, isSourceFile);
  const entryPoints = readEntryPoints(npmName, pkgJson);

  let source: ApiReference['source'] = 'none';
  let files: DeclarationFile[] = [];
  if (dts.length > 0 && newest(dts) >= newest(sources)) {
    source = 'dist';
    files = dts.map((f) => ({ path: rel(distDir, f), text: readFileSync(f, 'utf8') }));
  } else if (sources.length > 0) {
    source = 'src';
    files = emitDeclarations(packageDir, srcDir, sources);
    if (files.length === 0 && existsSync(join(srcDir, 'index.ts'))) {
      files = [{ path: 'index.ts', text: readFileSync(join(srcDir, 'index.ts'), 'utf8') }];
    }
  }
  files = files
    .map((f) => ({ path: f.path, text: cleanDeclaration(f.text) }))
    .filter((f) => f.text.length > 0 && f.text !== 'export {};');
  return { source, entryPoints, files: capTotal(sortFiles(files, entryPoints)) };
}

function isSourceFile(file: string): boolean {
  return (
    /\.(ts|tsx|mts)$/.test(file) &&
    !/\.d\.ts$/.test(file) &&
    !/\.(test|spec)\./.test(file) &&
    !file.includes(`${sep}__tests__${sep}`)
  );
}

/** `exports` (or `types`) of package.json as `@signpost/x/sub` -> declaration path relative to the declaration root. */
function readEntryPoints(npmName: string, pkgJson: Record<string, unknown>): ApiReference['entryPoints'] {
  const out: ApiReference['entryPoints'] = [];
  const exportsField = pkgJson['exports'];
  const entries: [string, unknown][] =
    exportsField === undefined
      ? [['.', pkgJson['types'] ?? pkgJson['typings'] ?? pkgJson['main']]]
      : typeof exportsField === 'string' || Array.isArray(exportsField)
        ? [['.', exportsField]]
        : isObject(exportsField) && Object.keys(exportsField).every((k) => !k.startsWith('.'))
          ? [['.', exportsField]]
          : Object.entries(exportsField as Record<string, unknown>);
  for (const [key, target] of entries) {
    if (key === './package.json' || key.includes('*')) continue;
    const file = typesTarget(target);
    if (!file) continue;
    const bare = file.replace(/^\.\//, '').replace(/^(dist|src|lib|build)\//, '');
    const path = /\.d\.[mc]?ts$/.test(bare)
      ? bare.replace(/\.d\.[mc]?ts$/, '.d.ts')
      : bare.replace(/\.[mc]?(js|ts|tsx|jsx)$/, '.d.ts');
    out.push({ specifier: key === '.' ? npmName : `${npmName}/${key.replace(/^\.\//, '')}`, path });
  }
  return out;
}

function typesTarget(target: unknown): string | null {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const found = typesTarget(t);
      if (found) return found;
    }
    return null;
  }
  if (!isObject(target)) return null;
  for (const key of ['types', 'import', 'node', 'default', 'require']) {
    if (key in target) {
      const found = typesTarget(target[key]);
      if (found) return found;
    }
  }
  return null;
}

/** Emits declarations for `src/` in memory; returns paths relative to `src/`. */
function emitDeclarations(packageDir: string, srcDir: string, sources: string[]): DeclarationFile[] {
  try {
    let options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      jsx: ts.JsxEmit.ReactJSX,
    };
    const configPath = ['tsconfig.build.json', 'tsconfig.json']
      .map((f) => join(packageDir, f))
      .find((f) => existsSync(f));
    if (configPath) {
      const host: ts.ParseConfigFileHost = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
      const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, host);
      if (parsed) options = parsed.options;
    }
    const declarationDir = join(packageDir, '.docs-mcp-declarations');
    options = {
      ...options,
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      noEmitOnError: false,
      declarationMap: false,
      sourceMap: false,
      composite: false,
      incremental: false,
      tsBuildInfoFile: undefined,
      outDir: undefined,
      rootDir: srcDir,
      declarationDir,
    };
    const program = ts.createProgram({ rootNames: sources, options });
    const files: DeclarationFile[] = [];
    program.emit(
      undefined,
      (fileName, text) => {
        if (fileName.endsWith('.d.ts') && fileName.startsWith(declarationDir)) {
          files.push({ path: rel(declarationDir, fileName), text });
        }
      },
      undefined,
      true,
    );
    return files;
  } catch {
    return [];
  }
}

function cleanDeclaration(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/^\/\/# sourceMappingURL=.*$/gm, '')
    .trim();
}

function sortFiles(files: DeclarationFile[], entryPoints: ApiReference['entryPoints']): DeclarationFile[] {
  const rank = (f: DeclarationFile) => {
    const i = entryPoints.findIndex((e) => e.path === f.path);
    if (i !== -1) return i;
    return f.path === 'index.d.ts' ? -1 : entryPoints.length;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
}

function capTotal(files: DeclarationFile[]): DeclarationFile[] {
  let total = 0;
  return files.filter((f) => {
    total += f.text.length;
    return total <= MAX_TOTAL_CHARS;
  });
}

function listFiles(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
      out.push(...listFiles(full, keep));
    else if (entry.isFile() && keep(full)) out.push(full);
  }
  return out.sort();
}

function newest(files: string[]): number {
  return files.reduce((max, f) => Math.max(max, statSync(f).mtimeMs), 0);
}

function rel(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
