import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PACKAGE_NAMES,
  type ApiReference,
  type DocsContent,
  type PackageDocs,
  type PackageName,
} from '../../src/content.ts';
import { gatherApi } from './api.ts';
import { gatherExamples } from './examples.ts';
import { parseReadme } from './readme.ts';

/** Gathers the docs of every SDK package found under `packagesDir` (the monorepo's `packages/`). */
export function gatherAll(packagesDir: string, generator: string): DocsContent {
  return { generator, packages: PACKAGE_NAMES.map((name) => gatherPackage(packagesDir, name)) };
}

export function gatherPackage(packagesDir: string, name: PackageName): PackageDocs {
  const npmName = `@signpost/${name}`;
  const dir = join(packagesDir, name);
  const installCommand = `npm install ${npmName}`;
  if (!existsSync(dir)) {
    return {
      name,
      npmName,
      available: false,
      version: null,
      description: `${npmName}: documentation not available in this build (the package did not exist yet when @signpost/docs-mcp was built).`,
      installCommand,
      peerDependencies: {},
      optionalPeers: [],
      readmeTitle: null,
      readmeIntro: '',
      sections: [],
      api: { source: 'none', entryPoints: [], files: [] },
      examples: [],
      notes: [
        `The package ${npmName} did not exist when this docs server was built, so it has no documentation here yet.`,
      ],
    };
  }

  const notes: string[] = [];
  const pkgJson = readJson(join(dir, 'package.json'));
  if (!pkgJson) notes.push(`${npmName} has no readable package.json.`);
  const readmePath = join(dir, 'README.md');
  const readme = existsSync(readmePath) ? parseReadme(readFileSync(readmePath, 'utf8')) : null;
  if (!readme) notes.push(`${npmName} has no README.md yet.`);
  const description =
    str(pkgJson?.['description']) ?? firstParagraph(readme?.intro ?? '') ?? `${npmName} (no description yet).`;
  const api = gatherApi(dir, npmName, pkgJson ?? {});
  appendInternalDependencies(packagesDir, api);
  if (api.files.length === 0)
    notes.push(`${npmName} has no type declarations or sources to build an API reference from yet.`);
  const examples = gatherExamples(dir);
  if (examples.length === 0) notes.push(`${npmName} has no example files in examples/ yet.`);
  const peers = pkgJson?.['peerDependencies'];
  const peersMeta = pkgJson?.['peerDependenciesMeta'];
  const optionalPeers = isRecord(peersMeta)
    ? Object.entries(peersMeta)
        .filter(([, meta]) => isRecord(meta) && meta['optional'] === true)
        .map(([name]) => name)
    : [];

  return {
    name,
    npmName,
    available: true,
    version: str(pkgJson?.['version']),
    description,
    installCommand,
    peerDependencies: isRecord(peers) ? Object.fromEntries(Object.entries(peers).map(([k, v]) => [k, String(v)])) : {},
    optionalPeers,
    readmeTitle: readme?.title ?? null,
    readmeIntro: readme?.intro ?? '',
    sections: readme?.sections ?? [],
    api,
    examples,
    notes,
  };
}

/**
 * Types that come from an internal package the SDK package depends on (`@signpost/sdk-core`), re-exported
 * or used in its public declarations, are appended (the declaration files that declare those names), so
 * the reference is complete without the whole internal package.
 */
function appendInternalDependencies(packagesDir: string, api: ApiReference): void {
  const wanted = new Map<string, Set<string>>();
  const pattern = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']@signpost\/([a-z0-9-]+)["']/g;
  for (const file of api.files) {
    for (const match of file.text.matchAll(pattern)) {
      const dep = match[2]!;
      if ((PACKAGE_NAMES as readonly string[]).includes(dep) || !existsSync(join(packagesDir, dep))) continue;
      const names = wanted.get(dep) ?? new Set<string>();
      for (const part of match[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name) names.add(name);
      }
      wanted.set(dep, names);
    }
  }
  for (const [dep, names] of wanted) {
    const depApi = gatherApi(
      join(packagesDir, dep),
      `@signpost/${dep}`,
      readJson(join(packagesDir, dep, 'package.json')) ?? {},
    );
    const declares = (text: string, name: string) =>
      new RegExp(
        `export\\s+(?:declare\\s+)?(?:abstract\\s+)?(?:class|interface|type|function|const|let|enum)\\s+${name}\\b`,
      ).test(text);
    for (const f of depApi.files) {
      if ([...names].some((n) => declares(f.text, n)))
        api.files.push({ path: `@signpost/${dep}/${f.path}`, text: f.text });
    }
  }
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function firstParagraph(text: string): string | null {
  const para = text.split(/\n\s*\n/).find((p) => p.trim() && !p.trim().startsWith('```') && !p.trim().startsWith('<'));
  return para ? para.replace(/\s+/g, ' ').trim() : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
