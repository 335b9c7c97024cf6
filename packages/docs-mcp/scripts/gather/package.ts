import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_NAMES, type DocsContent, type PackageDocs, type PackageName } from "../../src/content.ts";
import { gatherApi } from "./api.ts";
import { gatherExamples } from "./examples.ts";
import { parseReadme } from "./readme.ts";

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
      name, npmName, available: false, version: null,
      description: `${npmName}: documentation not available in this build (the package did not exist yet when @signpost/docs-mcp was built).`,
      installCommand, peerDependencies: {}, readmeTitle: null, readmeIntro: "", sections: [],
      api: { source: "none", entryPoints: [], files: [] }, examples: [],
      notes: [`The package ${npmName} did not exist when this docs server was built, so it has no documentation here yet.`],
    };
  }

  const notes: string[] = [];
  const pkgJson = readJson(join(dir, "package.json"));
  if (!pkgJson) notes.push(`${npmName} has no readable package.json.`);
  const readmePath = join(dir, "README.md");
  const readme = existsSync(readmePath) ? parseReadme(readFileSync(readmePath, "utf8")) : null;
  if (!readme) notes.push(`${npmName} has no README.md yet.`);
  const description = str(pkgJson?.["description"]) ?? firstParagraph(readme?.intro ?? "") ?? `${npmName} (no description yet).`;
  const api = gatherApi(dir, npmName, pkgJson ?? {});
  if (api.files.length === 0) notes.push(`${npmName} has no type declarations or sources to build an API reference from yet.`);
  const examples = gatherExamples(dir);
  if (examples.length === 0) notes.push(`${npmName} has no example files in examples/ yet.`);
  const peers = pkgJson?.["peerDependencies"];

  return {
    name, npmName, available: true,
    version: str(pkgJson?.["version"]),
    description,
    installCommand,
    peerDependencies: isRecord(peers) ? Object.fromEntries(Object.entries(peers).map(([k, v]) => [k, String(v)])) : {},
    readmeTitle: readme?.title ?? null,
    readmeIntro: readme?.intro ?? "",
    sections: readme?.sections ?? [],
    api,
    examples,
    notes,
  };
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function firstParagraph(text: string): string | null {
  const para = text.split(/\n\s*\n/).find((p) => p.trim() && !p.trim().startsWith("```") && !p.trim().startsWith("<"));
  return para ? para.replace(/\s+/g, " ").trim() : null;
}

function str(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
