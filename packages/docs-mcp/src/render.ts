/** Turns gathered package docs into the Markdown texts the tools return. */
import { EXAMPLE_PLATFORMS, type ExamplePlatform, type PackageDocs, type ReadmeSection } from './content.ts';

const INSTALL = /^(install|installation|setup)\b/i;
const QUICK_START = /^(quick[\s-]?start|getting started|usage)\b/i;
const API = /^(api|reference|configuration|options)\b/i;
const EXAMPLES = /^examples?\b/i;

const PLATFORM_LABELS: Record<ExamplePlatform | 'other', string> = {
  browser: 'Plain browser',
  node: 'Node.js',
  react: 'React',
  nextjs: 'Next.js',
  other: 'Other',
};

export function renderPackageList(packages: PackageDocs[]): string {
  const lines = ['# Signpost SDK packages', ''];
  for (const p of packages) {
    lines.push(`- **${p.name}** (\`${p.npmName}\`${p.version ? ` ${p.version}` : ''}): ${p.description}`);
    lines.push(`  Install: \`${installLine(p)}\``);
  }
  lines.push(
    '',
    'Use get_package_docs, get_installation_guide, get_api_reference or get_code_examples with `package` set to one of these names for details.',
  );
  return lines.join('\n');
}

export function renderInstallationGuide(p: PackageDocs): string {
  if (!p.available) return unavailable(p);
  return withNotes([`# Installing ${p.npmName}`, '', p.description, ...installationParts(p, 2, true)], p).join('\n');
}

export function renderApiReference(p: PackageDocs): string {
  if (!p.available) return unavailable(p);
  return withNotes([`# ${p.npmName} API reference`, ...apiParts(p, 2)], p).join('\n');
}

export function renderCodeExamples(p: PackageDocs, platform?: ExamplePlatform): string {
  if (!p.available) return unavailable(p);
  const title = `# ${p.npmName} examples${platform ? ` (${PLATFORM_LABELS[platform]})` : ''}`;
  return [title, ...exampleParts(p, 2, platform)].join('\n');
}

export function renderPackageDocs(p: PackageDocs): string {
  if (!p.available) return unavailable(p);
  const out = [`# ${p.readmeTitle ?? p.npmName}${p.version ? ` (version ${p.version})` : ''}`];
  const norm = (t: string) => t.replace(/\s+/g, ' ').replace(/\.$/, '').trim();
  if (!norm(p.readmeIntro).startsWith(norm(p.description))) out.push('', p.description);
  if (p.readmeIntro) out.push('', p.readmeIntro);
  const known = [INSTALL, QUICK_START, API, EXAMPLES];
  out.push(...p.sections.filter((s) => !known.some((re) => re.test(s.title))).flatMap((s) => sectionBlock(s, 2)));
  out.push('', '## Installation', ...installationParts(p, 3, false));
  out.push('', '## API reference', ...apiParts(p, 3));
  out.push('', '## Examples', ...exampleParts(p, 3));
  return withNotes(out, p).join('\n');
}

/** Install command, peers, the README's installation and quick start sections. */
function installationParts(p: PackageDocs, level: number, introAsQuickStart: boolean): string[] {
  const out: string[] = [];
  const install = sections(p, INSTALL);
  const quick = sections(p, QUICK_START);
  if (!install.some((s) => s.body.includes(p.installCommand))) out.push('', fence('sh', installLine(p)));
  const peers = Object.entries(p.peerDependencies);
  const list = (xs: [string, string][]) => xs.map(([n, v]) => `\`${n}@${v}\``).join(', ');
  const required = peers.filter(([n]) => !p.optionalPeers.includes(n));
  const optional = peers.filter(([n]) => p.optionalPeers.includes(n));
  if (required.length > 0)
    out.push('', `Peer dependencies (install them yourself if your app does not have them): ${list(required)}.`);
  if (optional.length > 0)
    out.push('', `Optional peer dependencies (only for the entry points that use them): ${list(optional)}.`);
  for (const s of install) out.push(...(level === 2 ? sectionBlock(s, level) : ['', s.body]));
  out.push(...quick.flatMap((s) => sectionBlock(s, level)));
  if (quick.length === 0 && introAsQuickStart && p.readmeIntro)
    out.push('', `${'#'.repeat(level)} Quick start`, '', p.readmeIntro);
  return out;
}

/** The README's API sections, the entry points and the declarations. */
function apiParts(p: PackageDocs, level: number): string[] {
  const h = '#'.repeat(level);
  const out = sections(p, API).flatMap((s) =>
    /^api\b/i.test(s.title) && level > 2 ? ['', s.body] : sectionBlock(s, level),
  );
  if (p.api.entryPoints.length > 0) {
    out.push('', `${h} Entry points`, '');
    for (const e of p.api.entryPoints) out.push(`- \`import ... from "${e.specifier}"\` (declarations: \`${e.path}\`)`);
  }
  if (p.api.files.length > 0) {
    const from =
      p.api.source === 'dist'
        ? "the package's published type declarations"
        : "declarations generated from the package's sources";
    out.push('', `${h} Type declarations`, '', `Constructor configuration, methods and types, from ${from}.`);
    for (const f of p.api.files) {
      const note = f.path.startsWith('@signpost/')
        ? ' (an internal dependency, installed with the package; its types are re-exported or used above)'
        : '';
      out.push('', `${h}# ${f.path}${note}`, '', fence('ts', f.text));
    }
  }
  return out;
}

/** The README's examples sections and the example files, optionally of one platform. */
function exampleParts(p: PackageDocs, level: number, platform?: ExamplePlatform): string[] {
  const h = '#'.repeat(level);
  const out: string[] = [];
  if (!platform) out.push(...sections(p, EXAMPLES).flatMap((s) => (level > 2 ? ['', s.body] : sectionBlock(s, level))));
  const files = platform ? p.examples.filter((e) => e.platform === platform) : p.examples;
  if (files.length > 0) out.push('', "These example files are runnable; the package's tests run them.");
  for (const e of files) out.push('', `${h} ${PLATFORM_LABELS[e.platform]}: ${e.path}`, '', fence(e.language, e.code));
  if (files.length === 0) {
    const have = [...new Set(p.examples.map((e) => e.platform))];
    out.push(
      '',
      platform
        ? `No ${PLATFORM_LABELS[platform]} example file for ${p.npmName}.${have.length ? ` Available platforms: ${have.join(', ')}.` : ''}`
        : `No example files for ${p.npmName} yet.`,
    );
  }
  const missing = EXAMPLE_PLATFORMS.filter((pl) => !p.examples.some((e) => e.platform === pl));
  if (!platform && files.length > 0 && missing.length > 0)
    out.push('', `No example file for: ${missing.map((m) => PLATFORM_LABELS[m]).join(', ')}.`);
  return out;
}

function installLine(p: PackageDocs): string {
  return p.installCommand;
}

function sections(p: PackageDocs, re: RegExp): ReadmeSection[] {
  return p.sections.filter((s) => re.test(s.title));
}

function sectionBlock(s: ReadmeSection, level: number): string[] {
  return ['', `${'#'.repeat(level)} ${s.title}`, '', s.body];
}

function withNotes(out: string[], p: PackageDocs): string[] {
  return p.notes.length > 0 ? [...out, '', ...p.notes.map((n) => `> Note: ${n}`)] : out;
}

function unavailable(p: PackageDocs): string {
  return [`# ${p.npmName}`, '', ...p.notes, '', `Install command once it is published: \`${p.installCommand}\``].join(
    '\n',
  );
}

function fence(language: string, code: string): string {
  let ticks = '```';
  while (code.includes(ticks)) ticks += '`';
  return `${ticks}${language}\n${code}\n${ticks}`;
}
