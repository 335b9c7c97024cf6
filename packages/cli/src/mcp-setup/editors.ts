/** The supported editors, where each keeps its MCP configuration, and which of them are installed. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SetupEnvironment } from './platform.ts';

export const EDITOR_IDS = ['claude-desktop', 'cursor', 'vscode', 'windsurf'] as const;
export type EditorId = (typeof EDITOR_IDS)[number];

/** How an editor's config file describes a remote (HTTP) MCP server, if it can. */
export type RemoteStyle = 'url' | 'serverUrl' | 'vscode';

export interface Editor {
  id: EditorId;
  name: string;
  /** `mcpServers` (Claude Desktop, Cursor, Windsurf) or `servers` with `type` (VS Code). */
  serversKey: 'mcpServers' | 'servers';
  /** Null when remote servers cannot be added through the config file. */
  remote: RemoteStyle | null;
  remoteUnsupported?: string;
  /** Whether on Windows `npx` must be started through `cmd /c` (the editor spawns without a shell). */
  windowsCmdWrapper: boolean;
}

export const EDITORS: Record<EditorId, Editor> = {
  'claude-desktop': {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    serversKey: 'mcpServers',
    remote: null,
    remoteUnsupported:
      'Claude Desktop adds remote MCP servers only in its app (Settings > Connectors), not in its config file',
    windowsCmdWrapper: true,
  },
  cursor: { id: 'cursor', name: 'Cursor', serversKey: 'mcpServers', remote: 'url', windowsCmdWrapper: true },
  vscode: { id: 'vscode', name: 'VS Code', serversKey: 'servers', remote: 'vscode', windowsCmdWrapper: false },
  windsurf: {
    id: 'windsurf',
    name: 'Windsurf',
    serversKey: 'mcpServers',
    remote: 'serverUrl',
    windowsCmdWrapper: true,
  },
};

export interface ConfigTarget {
  editor: Editor;
  scope: 'user' | 'project';
  /** The config file (it may not exist yet). */
  path: string;
  /** Written with the plain `npx` command, portable across the team's operating systems. */
  portable: boolean;
  /** Something the user should know about this file, e.g. why another candidate was left alone. */
  note?: string;
}

export interface SkippedEditor {
  editor: Editor;
  scope: 'user' | 'project';
  reason: string;
}

export interface Located {
  targets: ConfigTarget[];
  skipped: SkippedEditor[];
}

/** Finds the user-level config file of each requested editor; an editor counts as installed when its config dir exists. */
export function locateUserConfigs(env: SetupEnvironment, editors: readonly EditorId[]): Located {
  const located: Located = { targets: [], skipped: [] };
  for (const id of editors) {
    const editor = EDITORS[id];
    const found = id === 'claude-desktop' ? locateClaudeDesktop(env) : locateSimple(env, id);
    for (const path of found.paths) {
      located.targets.push({
        editor,
        scope: 'user',
        path,
        portable: false,
        ...(found.note ? { note: found.note } : {}),
      });
    }
    if (found.paths.length === 0) located.skipped.push({ editor, scope: 'user', reason: found.reason });
  }
  return located;
}

/** Project-level files (`.cursor/mcp.json`, `.vscode/mcp.json`) for the editors that have them. */
export function locateProjectConfigs(projectDir: string, editors: readonly EditorId[]): Located {
  const located: Located = { targets: [], skipped: [] };
  for (const id of editors) {
    const editor = EDITORS[id];
    if (id === 'cursor')
      located.targets.push({ editor, scope: 'project', path: join(projectDir, '.cursor', 'mcp.json'), portable: true });
    else if (id === 'vscode')
      located.targets.push({ editor, scope: 'project', path: join(projectDir, '.vscode', 'mcp.json'), portable: true });
    else
      located.skipped.push({ editor, scope: 'project', reason: `${editor.name} has no project-level MCP config file` });
  }
  return located;
}

interface Found {
  paths: string[];
  reason: string;
  note?: string;
}

function locateSimple(env: SetupEnvironment, id: Exclude<EditorId, 'claude-desktop'>): Found {
  const dir =
    id === 'cursor'
      ? join(env.home, '.cursor')
      : id === 'windsurf'
        ? join(env.home, '.codeium', 'windsurf')
        : join(env.appConfigDir, 'Code');
  const file =
    id === 'cursor'
      ? join(dir, 'mcp.json')
      : id === 'windsurf'
        ? join(dir, 'mcp_config.json')
        : join(dir, 'User', 'mcp.json');
  return isDir(dir) ? { paths: [file], reason: '' } : { paths: [], reason: `not installed (no ${dir})` };
}

/**
 * Claude Desktop: `<appConfigDir>/Claude/claude_desktop_config.json`; on Windows the packaged (MSIX)
 * app reads `%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\claude_desktop_config.json`
 * instead, and a file under `%APPDATA%` is invisible to it, so a packaged install wins.
 */
function locateClaudeDesktop(env: SetupEnvironment): Found {
  const plainDir = join(env.appConfigDir, 'Claude');
  const plainFile = join(plainDir, 'claude_desktop_config.json');
  if (env.platform === 'win32' && env.localAppData) {
    const packagesDir = join(env.localAppData, 'Packages');
    let packages: string[] = [];
    try {
      packages = readdirSync(packagesDir)
        .filter((n) => n.startsWith('Claude_') && isDir(join(packagesDir, n)))
        .sort();
    } catch {
      // no Packages folder: not a packaged install
    }
    const fileOf = (pkg: string) =>
      join(packagesDir, pkg, 'LocalCache', 'Roaming', 'Claude', 'claude_desktop_config.json');
    const packaged = (pkg: string): Found => ({
      paths: [fileOf(pkg)],
      reason: '',
      ...(existsSync(plainFile)
        ? {
            note: `Claude Desktop is the packaged (Microsoft Store/MSIX) app, which does not read ${plainFile}; that file was left as is.`,
          }
        : {}),
    });
    if (packages.length === 1) return packaged(packages[0]!);
    if (packages.length > 1) {
      const withConfig = packages.filter((p) => existsSync(fileOf(p)));
      if (withConfig.length === 1) return packaged(withConfig[0]!);
      return {
        paths: [],
        reason: `several packaged installs found (${packages.map((p) => join(packagesDir, p)).join(', ')}) and it is unclear which one is used; nothing changed`,
      };
    }
  }
  return isDir(plainDir) ? { paths: [plainFile], reason: '' } : { paths: [], reason: `not installed (no ${plainDir})` };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
