/** Works out, for one config file, the text it should have and what that changes, without writing anything. */
import { readFileSync, statSync } from 'node:fs';
import type { ConfigTarget } from './editors.ts';
import {
  DOCS_ENTRY,
  HOSTED_ENTRY,
  LEGACY_ENTRY,
  REMOTE_KEYS,
  classifyService,
  deepEqual,
  docsEntry,
  entryUrl,
  hostedEntry,
  isRecord,
} from './entries.ts';
import { JsoncDocument } from './jsonc.ts';
import type { Platform } from './platform.ts';

export interface PlanOptions {
  platform: Platform;
  /** Add the hosted server as `service` where the editor supports remote servers. */
  hostedUrl?: string;
}

export interface TargetPlan {
  target: ConfigTarget;
  /** `create`: the file does not exist yet; `error`: the file cannot be used and is left alone. */
  status: 'create' | 'change' | 'unchanged' | 'error';
  before: string | null;
  after: string | null;
  /** What changes, one line each. */
  changes: string[];
  /** What was looked at and left as it was, and why. */
  kept: string[];
  /** What was asked for but not done here, and why. */
  notDone: string[];
  error?: string;
}

export function planTarget(target: ConfigTarget, options: PlanOptions): TargetPlan {
  const plan: TargetPlan = {
    target,
    status: 'unchanged',
    before: null,
    after: null,
    changes: [],
    kept: [],
    notDone: [],
  };
  const fail = (error: string): TargetPlan => ({ ...plan, status: 'error', error });

  let before: string | null = null;
  try {
    if (statSync(target.path).isDirectory()) return fail('it is a directory, not a file');
    before = readFileSync(target.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return fail(`it could not be read (${code ?? String(error)})`);
  }
  plan.before = before;
  const bom = before?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const source = before === null || before.trim() === '' ? '{}' : before.slice(bom.length);

  const syntaxErrors = JsoncDocument.errors(source);
  if (syntaxErrors.length > 0)
    return fail(`it is not valid JSON (${syntaxErrors.slice(0, 3).join('; ')}); fix or remove it and run again`);
  const doc = new JsoncDocument(source);
  if (!isRecord(doc.value())) return fail('its top level is not a JSON object');
  const key = target.editor.serversKey;
  const servers = doc.get([key]);
  if (servers !== undefined && !isRecord(servers)) return fail(`its "${key}" is not an object`);

  const renamed = migrateLegacy(doc, key, plan);
  writeDocsEntry(doc, key, target, options.platform, plan, renamed);
  if (options.hostedUrl) addHosted(doc, key, target, options.hostedUrl, plan);

  const others = Object.keys((doc.get([key]) as Record<string, unknown> | undefined) ?? {}).filter(
    (name) => name !== DOCS_ENTRY && name !== HOSTED_ENTRY,
  );
  if (others.length > 0)
    plan.kept.push(
      `kept ${others.length === 1 ? 'the other server as it was' : `the ${others.length} other servers as they were`}: ${others.map((o) => JSON.stringify(o)).join(', ')}`,
    );

  if (before === null) {
    plan.status = 'create';
    plan.after = doc.text.endsWith('\n') ? doc.text : `${doc.text}\n`;
  } else if (before.trim() === '') {
    plan.after = `${doc.text}\n`;
    plan.status = 'change';
  } else {
    plan.after = bom + doc.text;
    plan.status = plan.after === before ? 'unchanged' : 'change';
  }
  return plan;
}

/** A `service` entry that runs the docs server is the old name of `service-docs`. True when renamed to it. */
function migrateLegacy(doc: JsoncDocument, key: string, plan: TargetPlan): boolean {
  const legacy = doc.get([key, LEGACY_ENTRY]);
  if (legacy === undefined) return false;
  const kind = classifyService(legacy);
  if (kind === 'hosted') {
    plan.kept.push(`left "${LEGACY_ENTRY}" as it was: it points at the hosted MCP server${urlSuffix(legacy)}`);
  } else if (kind === 'other') {
    plan.kept.push(`left "${LEGACY_ENTRY}" as it was: it does not run the Signpost docs server`);
  } else if (doc.get([key, DOCS_ENTRY]) !== undefined) {
    doc.set([key, LEGACY_ENTRY], undefined);
    plan.changes.push(
      `removed the legacy "${LEGACY_ENTRY}" entry (it ran the docs server, which is "${DOCS_ENTRY}" now)`,
    );
  } else {
    doc.renameKey([key, LEGACY_ENTRY], DOCS_ENTRY);
    plan.changes.push(`replaced the legacy "${LEGACY_ENTRY}" entry (it ran the docs server) with "${DOCS_ENTRY}"`);
    return true;
  }
  return false;
}

function writeDocsEntry(
  doc: JsoncDocument,
  key: string,
  target: ConfigTarget,
  platform: Platform,
  plan: TargetPlan,
  renamed: boolean,
): void {
  const desired = docsEntry(target, platform);
  const describe = `${String(desired['command'])} ${(desired['args'] as string[]).join(' ')}`;
  const existing = doc.get([key, DOCS_ENTRY]);
  if (!isRecord(existing)) {
    doc.set([key, DOCS_ENTRY], desired);
    plan.changes.push(`added "${DOCS_ENTRY}" (${describe})`);
    return;
  }
  let updated = false;
  for (const [field, value] of Object.entries(desired)) {
    if (!deepEqual(existing[field], value)) {
      doc.set([key, DOCS_ENTRY, field], value);
      updated = true;
    }
  }
  for (const field of REMOTE_KEYS) {
    if (field in existing) {
      doc.set([key, DOCS_ENTRY, field], undefined);
      updated = true;
    }
  }
  if (updated && !renamed) plan.changes.push(`updated "${DOCS_ENTRY}" in place (${describe})`);
  if (!updated && !renamed) plan.kept.push(`"${DOCS_ENTRY}" is already up to date`);
}

function addHosted(doc: JsoncDocument, key: string, target: ConfigTarget, url: string, plan: TargetPlan): void {
  const entry = hostedEntry(target.editor, url);
  if (!entry) {
    plan.notDone.push(
      `did not add the hosted server: ${target.editor.remoteUnsupported ?? `${target.editor.name} does not support remote servers`}`,
    );
    return;
  }
  const existing = doc.get([key, HOSTED_ENTRY]);
  if (existing === undefined) {
    doc.set([key, HOSTED_ENTRY], entry);
    plan.changes.push(`added the hosted MCP server as "${HOSTED_ENTRY}" (${url})`);
    return;
  }
  if (classifyService(existing) === 'hosted') {
    const current = entryUrl(existing);
    if (current !== url)
      plan.notDone.push(
        `did not change "${HOSTED_ENTRY}": it already points at ${current ?? 'a hosted server'}; edit it yourself to use ${url}`,
      );
    return;
  }
  plan.notDone.push(`did not add the hosted server: an unrelated "${HOSTED_ENTRY}" entry is in the way`);
}

function urlSuffix(entry: unknown): string {
  const url = entryUrl(entry);
  return url ? ` (${url})` : '';
}
