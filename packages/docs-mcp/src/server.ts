/** The Signpost docs MCP server: read-only tools over the docs gathered at build time. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EXAMPLE_PLATFORMS, PACKAGE_NAMES, type DocsContent, type PackageDocs, type PackageName } from './content.ts';
import { content as builtContent } from './generated/content.ts';
import {
  renderApiReference,
  renderCodeExamples,
  renderInstallationGuide,
  renderPackageDocs,
  renderPackageList,
} from './render.ts';

export { PACKAGE_NAMES, EXAMPLE_PLATFORMS };
export type { DocsContent, PackageDocs, PackageName };

export const SERVER_NAME = 'signpost-docs';

const VALID = PACKAGE_NAMES.join(', ');

const packageParam = z
  .enum(PACKAGE_NAMES, {
    error: (issue) =>
      issue.input === undefined
        ? `Missing "package". Valid package names: ${VALID}.`
        : `Unknown package ${JSON.stringify(issue.input)}. Valid package names: ${VALID}.`,
  })
  .describe(`The Signpost SDK package, one of: ${VALID}.`);

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Creates the server over `content` (by default the docs gathered when this package was built). */
export function createDocsServer(content: DocsContent = builtContent): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Signpost SDK docs', version: content.generator },
    {
      instructions:
        "Documentation of the Signpost SDK packages (@signpost/*). Start with list_packages, then fetch a package's " +
        'installation guide, API reference or code examples (plain browser, Node.js, React, Next.js). ' +
        'Guides to the hosted MCP server (its tools and scopes) and the protocols (Sentry DSN, OFREP, OTLP) are resources: ' +
        'signpost-docs://guides/<name>, listed by resources/list.',
    },
  );
  const byName = new Map(content.packages.map((p) => [p.name, p]));
  const get = (name: PackageName): PackageDocs => byName.get(name)!;
  const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

  server.registerTool(
    'list_packages',
    {
      title: 'List Signpost SDK packages',
      description:
        'Lists every Signpost SDK package with a short description and its install command. ' +
        '`package` is optional and narrows the list to that one package.',
      inputSchema: { package: packageParam.optional() },
      annotations: readOnly,
    },
    async ({ package: name }) => text(renderPackageList(name ? [get(name)] : content.packages)),
  );
  server.registerTool(
    'get_package_docs',
    {
      title: 'Full documentation of a package',
      description: 'Overview, installation, API reference and code examples of one Signpost SDK package.',
      inputSchema: { package: packageParam },
      annotations: readOnly,
    },
    async ({ package: name }) => text(renderPackageDocs(get(name))),
  );
  server.registerTool(
    'get_installation_guide',
    {
      title: 'Installation guide of a package',
      description: 'Install command and quick start of one Signpost SDK package.',
      inputSchema: { package: packageParam },
      annotations: readOnly,
    },
    async ({ package: name }) => text(renderInstallationGuide(get(name))),
  );
  server.registerTool(
    'get_api_reference',
    {
      title: 'API reference of a package',
      description:
        'Constructor configuration, methods and types of one Signpost SDK package, as TypeScript declarations.',
      inputSchema: { package: packageParam },
      annotations: readOnly,
    },
    async ({ package: name }) => text(renderApiReference(get(name))),
  );
  server.registerTool(
    'get_code_examples',
    {
      title: 'Code examples of a package',
      description:
        'Runnable code examples of one Signpost SDK package for plain browser, Node.js, React and Next.js. ' +
        '`platform` is optional and narrows the examples to one platform.',
      inputSchema: {
        package: packageParam,
        platform: z
          .enum(EXAMPLE_PLATFORMS)
          .optional()
          .describe(`Only examples for this platform: ${EXAMPLE_PLATFORMS.join(', ')}.`),
      },
      annotations: readOnly,
    },
    async ({ package: name, platform }) => text(renderCodeExamples(get(name), platform)),
  );
  for (const guide of content.guides ?? []) {
    const uri = `signpost-docs://guides/${guide.name}`;
    server.registerResource(guide.name, uri, { title: guide.title, mimeType: 'text/markdown' }, async () => ({
      contents: [{ uri, mimeType: 'text/markdown', text: guide.text }],
    }));
  }
  return server;
}
