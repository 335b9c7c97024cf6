#!/usr/bin/env node
/** `signpost-docs-mcp`: serves the Signpost SDK docs over stdio. Writes nothing to disk. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { content } from './generated/content.ts';
import { createDocsServer } from './server.ts';

const arg = process.argv[2];
if (arg === '--version' || arg === '-v') {
  console.log(content.generator);
} else if (arg === '--help' || arg === '-h') {
  console.log(
    'Usage: npx -y @signpost/docs-mcp@latest\n\n' +
      'A local MCP server (stdio) with the documentation of the Signpost SDK packages.\n' +
      'Register it in your editor with `npx @signpost/cli@latest mcp setup`.',
  );
} else {
  const server = createDocsServer(content);
  server.connect(new StdioServerTransport()).catch((error: unknown) => {
    console.error('signpost-docs-mcp: could not start:', error);
    process.exit(1);
  });
}
