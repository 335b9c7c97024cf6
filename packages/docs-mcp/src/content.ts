/**
 * The shape of the documentation gathered at build time from the SDK packages
 * (see scripts/gather-docs.ts). Shared by the gatherer and the server.
 */

/** The SDK packages this server documents, in the order they are listed. */
export const PACKAGE_NAMES = ['error-tracker', 'feature-reporter', 'site-manager', 'i18n', 'logger'] as const;

export type PackageName = (typeof PACKAGE_NAMES)[number];

/** Platforms an example file can be written for, from its file name (`react.tsx`). */
export const EXAMPLE_PLATFORMS = ['browser', 'node', 'react', 'nextjs'] as const;

export type ExamplePlatform = (typeof EXAMPLE_PLATFORMS)[number];

export interface ReadmeSection {
  title: string;
  body: string;
}

export interface DeclarationFile {
  /** Path relative to the package's declaration root, e.g. `index.d.ts`. */
  path: string;
  text: string;
}

export interface ApiReference {
  /** Where the declarations came from. */
  source: 'dist' | 'src' | 'none';
  /** Import specifiers of the package mapped to the declaration file they resolve to. */
  entryPoints: { specifier: string; path: string }[];
  files: DeclarationFile[];
}

export interface ExampleFile {
  platform: ExamplePlatform | 'other';
  /** Path relative to the package, e.g. `examples/react.tsx`. */
  path: string;
  /** Code-fence language, e.g. `tsx`. */
  language: string;
  code: string;
}

export interface PackageDocs {
  name: PackageName;
  npmName: string;
  /** False when the package did not exist when this server was built. */
  available: boolean;
  version: string | null;
  description: string;
  installCommand: string;
  /** Peer dependencies the user installs themselves, e.g. `react`. */
  peerDependencies: Record<string, string>;
  /** Those of the peer dependencies that are optional (only needed by some entry points). */
  optionalPeers: string[];
  /** README title and the text before its first `##` section. */
  readmeTitle: string | null;
  readmeIntro: string;
  /** The README's `##` sections in order. */
  sections: ReadmeSection[];
  api: ApiReference;
  examples: ExampleFile[];
  /** Human-readable notes on what was missing at build time. */
  notes: string[];
}

/** A guide beyond the SDK packages (the hosted MCP server, the protocols), served as an MCP resource. */
export interface GuideDoc {
  /** File name without `.md`: the last part of its URI `signpost-docs://guides/<name>`. */
  name: string;
  /** The first `# ` heading. */
  title: string;
  /** Markdown. */
  text: string;
}

export interface DocsContent {
  /** Version of @signpost/docs-mcp that gathered this content. */
  generator: string;
  packages: PackageDocs[];
  /** From guides/*.md of this package; absent in content gathered before guides existed. */
  guides?: GuideDoc[];
}
