/** The server entries `mcp setup` writes, and how it recognises the ones already there. */
import type { ConfigTarget, Editor } from './editors.ts';
import type { Platform } from './platform.ts';

export const DOCS_ENTRY = 'service-docs';
export const LEGACY_ENTRY = 'service';
export const HOSTED_ENTRY = 'service';
export const DOCS_PACKAGE = '@signpost/docs-mcp';
export const DOCS_ARGS = ['-y', `${DOCS_PACKAGE}@latest`];

export type Entry = Record<string, unknown>;

/** `npx -y @signpost/docs-mcp@latest`, through `cmd /c` on Windows for editors that spawn without a shell. */
export function docsEntry(target: ConfigTarget, platform: Platform): Entry {
  const wrap = platform === 'win32' && target.editor.windowsCmdWrapper && !target.portable;
  const command = wrap
    ? { command: 'cmd', args: ['/c', 'npx', ...DOCS_ARGS] }
    : { command: 'npx', args: [...DOCS_ARGS] };
  return target.editor.serversKey === 'servers' ? { type: 'stdio', ...command } : command;
}

/** The hosted server entry, or null when the editor cannot take a remote server in its config file. */
export function hostedEntry(editor: Editor, url: string): Entry | null {
  switch (editor.remote) {
    case 'url':
      return { url };
    case 'serverUrl':
      return { serverUrl: url };
    case 'vscode':
      return { type: 'http', url };
    default:
      return null;
  }
}

/** Keys that make an entry a remote one; dropped from `service-docs`, which is always local. */
export const REMOTE_KEYS = ['url', 'serverUrl', 'headers'];

export type ServiceKind = 'legacy-docs' | 'hosted' | 'other';

/** Classifies an existing `service` entry: the old name of the docs server, the hosted server, or something else. */
export function classifyService(entry: unknown): ServiceKind {
  if (!isRecord(entry)) return 'other';
  const words = commandLine(entry);
  if (words.some((w) => /(^|[/\\])@signpost[/\\]docs-mcp(@|[/\\]|$)|(^|[/\\])signpost-docs-mcp(\.cmd|\.js)?$/.test(w)))
    return 'legacy-docs';
  if (typeof entry['url'] === 'string' || typeof entry['serverUrl'] === 'string') return 'hosted';
  if (typeof entry['type'] === 'string' && /^(http|sse|streamable-?http)$/i.test(entry['type'])) return 'hosted';
  // A stdio bridge to a remote server (`npx mcp-remote https://...`) points at the hosted URL too.
  if (words.some((w) => /^https?:\/\//.test(w))) return 'hosted';
  return 'other';
}

/** Where a hosted entry points, for messages. */
export function entryUrl(entry: unknown): string | null {
  if (!isRecord(entry)) return null;
  for (const key of ['url', 'serverUrl']) if (typeof entry[key] === 'string') return entry[key] as string;
  return commandLine(entry).find((w) => /^https?:\/\//.test(w)) ?? null;
}

function commandLine(entry: Record<string, unknown>): string[] {
  const words: string[] = [];
  if (typeof entry['command'] === 'string') words.push(...entry['command'].split(/\s+/));
  if (Array.isArray(entry['args']))
    for (const a of entry['args']) if (typeof a === 'string') words.push(...a.split(/\s+/));
  return words.filter(Boolean);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}
