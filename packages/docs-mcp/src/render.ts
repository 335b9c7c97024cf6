/** Turns gathered package docs into the Markdown texts the tools return. */
import { EXAMPLE_PLATFORMS, type ExamplePlatform, type PackageDocs, type ReadmeSection } from "./content.ts";

const INSTALL = /^(install|installation|setup)\b/i;
const QUICK_START = /^(quick[\s-]?start|getting started|usage)\b/i;
const API = /^(api|reference|configuration|options)\b/i;
const EXAMPLES = /^examples?\b/i;

const PLATFORM_LABELS: Record<ExamplePlatform | "other", string> = {
  browser: "Plain browser",
  node: "Node.js",
  react: "React",
  nextjs: "Next.js",
  other: "Other",
};

export function renderPackageList(packages: PackageDocs[]): string {
  const lines = ["# Signpost SDK packages", ""];
  for (const p of packages) {
    lines.push(`- **${p.name}** (\`${p.npmName}\`${p.version ? ` ${p.version}` : ""}): ${p.description}`);
    lines.push(`  Install: \`${installLine(p)}\``);
  }
  lines.push("", "Use get_package_docs, get_installation_guide, get_api_reference or get_code_examples with `package` set to one of these names for details.");
  return lines.join("\n");
}

export function renderInstallationGuide(p: PackageDocs): string {
  if (!p.available) return unavailable(p);
  const out = [`# Installing ${p.npmName}`, "", p.description, "", fence("sh", installLine(p))];
  const peers = Object.entries(p.peerDependencies);
  if (peers.length > 0) out.push("", `Peer dependencies (install them yourself if your app does not have them): ${peers.map(([n, v]) => `\`${n}@${v}\``).join(", ")}.`);
  const install = sections(p, INSTALL);
  const quick = sections(p, QUICK_START);
  out.push(...install.flatMap(sectionBlock));
  if (quick.length > 0) out.push(...quick.flatMap(sectionBlock));
  else if (p.readmeIntro) out.push("", "## Quick start", "", p.readmeIntro);
  return withNotes(out, p).join("\n");
}

export function renderApiReference(p: PackageDocs): string {
  if (!p.available) return unavailable(p);
  const out = [`# ${p.npmName} API reference`];
  out.push(...sections(p, API).flatMap(sectionBlock));
  if (p.api.entryPoints.length > 0) {
    out.push("", "## Entry points", "");
    for (const e of p.api.entryPoints) out.push(`- \`import ... from "${e.specifier}"\` (declarations: \`${e.path}\`)`);
  }
  if (p.api.files.length > 0) {
    const from = p.api.source === "dist" ? "the package's published type declarations" : "declarations generated from the package's sources";
    out.push("", "## Type declarations", "", `Constructor configuration, methods and types, from ${from}.`);
    for (const f of p.api.files) out.push("", `### ${f.path}`, "", fence("ts", f.text));
  }
  return withNotes(out, p).join("\n");
}

export function renderCodeExamples(p: PackageDocs, platform?: ExamplePlatform): string {
  if (!p.available) return unavailable(p);
  const out = [`# ${p.npmName} examples${platform ? ` (${PLATFORM_LABELS[platform]})` : ""}`];
  if (!platform) out.push(...sections(p, EXAMPLES).flatMap(sectionBlock));
  const files = platform ? p.examples.filter((e) => e.platform === platform) : p.examples;
  if (files.length > 0) out.push("", "These example files are runnable and are run by the package's tests.");
  for (const e of files) out.push("", `## ${PLATFORM_LABELS[e.platform]}: ${e.path}`, "", fence(e.language, e.code));
  if (files.length === 0) {
    const have = [...new Set(p.examples.map((e) => e.platform))];
    out.push("", platform
      ? `No ${PLATFORM_LABELS[platform]} example file for ${p.npmName}.${have.length ? ` Available platforms: ${have.join(", ")}.` : ""}`
      : `No example files for ${p.npmName} yet.`);
  }
  const missing = EXAMPLE_PLATFORMS.filter((pl) => !p.examples.some((e) => e.platform === pl));
  if (!platform && files.length > 0 && missing.length > 0) out.push("", `No example file for: ${missing.map((m) => PLATFORM_LABELS[m]).join(", ")}.`);
  return out.join("\n");
}

export function renderPackageDocs(p: PackageDocs): string {
  if (!p.available) return unavailable(p);
  const out = [`# ${p.readmeTitle ?? p.npmName}`, "", p.description];
  if (p.readmeIntro && p.readmeIntro.trim() !== p.description.trim()) out.push("", "## Overview", "", p.readmeIntro);
  const known = [INSTALL, QUICK_START, API, EXAMPLES];
  out.push(...p.sections.filter((s) => !known.some((re) => re.test(s.title))).flatMap(sectionBlock));
  const strip = (text: string) => text.split("\n").slice(1).join("\n");
  out.push("", strip(renderInstallationGuide({ ...p, notes: [] })));
  out.push("", strip(renderApiReference({ ...p, notes: [] })));
  out.push("", strip(renderCodeExamples(p)));
  return withNotes(out, p).join("\n");
}

function installLine(p: PackageDocs): string {
  return p.installCommand;
}

function sections(p: PackageDocs, re: RegExp): ReadmeSection[] {
  return p.sections.filter((s) => re.test(s.title));
}

function sectionBlock(s: ReadmeSection): string[] {
  return ["", `## ${s.title}`, "", s.body];
}

function withNotes(out: string[], p: PackageDocs): string[] {
  return p.notes.length > 0 ? [...out, "", ...p.notes.map((n) => `> Note: ${n}`)] : out;
}

function unavailable(p: PackageDocs): string {
  return [`# ${p.npmName}`, "", ...p.notes, "", `Install command once it is published: \`${p.installCommand}\``].join("\n");
}

function fence(language: string, code: string): string {
  let ticks = "```";
  while (code.includes(ticks)) ticks += "`";
  return `${ticks}${language}\n${code}\n${ticks}`;
}
