/** Shared expectations for the `signpost mcp setup` tests: platforms, editor names, the entries it writes. */
import jsonc from 'jsonc-parser';
import type { EditorName, FakePlatform } from './support.ts';

export const PLATFORMS: FakePlatform[] = ['darwin', 'linux', 'win32'];
export const NAMES: Record<EditorName, string> = {
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
};
export const HOSTED = 'https://signpost.example.com/mcp';

export const parse = (text: string): Record<string, any> => jsonc.parse(text, [], { allowTrailingComma: true });

export function expectedDocsEntry(editor: EditorName, platform: FakePlatform): Record<string, unknown> {
  const wrap = platform === 'win32' && editor !== 'vscode';
  const command = wrap
    ? { command: 'cmd', args: ['/c', 'npx', '-y', '@signpost/docs-mcp@latest'] }
    : { command: 'npx', args: ['-y', '@signpost/docs-mcp@latest'] };
  return editor === 'vscode' ? { type: 'stdio', ...command } : command;
}

export const serversKey = (editor: EditorName) => (editor === 'vscode' ? 'servers' : 'mcpServers');

/** A Cursor config with comments, a trailing comma, other servers and the legacy "service" docs entry. */
export const CURSOR_WITH_LEGACY = `{
  // Servers for this machine
  "mcpServers": {
    /* GitHub, with a token */
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_TOKEN": "x" } // keep me
    },
    "service": {
      "command": "npx",
      "args": ["-y", "@signpost/docs-mcp@latest"]
    },
    "linear": { "url": "https://mcp.linear.app/sse" },
  },
  "somethingElse": [1, 2, 3]
}
`;
