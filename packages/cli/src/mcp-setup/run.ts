/** `signpost mcp setup`: find the editors, plan each config file, show or write the changes, report. */
import { resolve } from 'node:path';
import { writePlan } from './apply.ts';
import { unifiedDiff } from './diff.ts';
import { EDITOR_IDS, locateProjectConfigs, locateUserConfigs, type EditorId, type SkippedEditor } from './editors.ts';
import { DOCS_ARGS, DOCS_ENTRY } from './entries.ts';
import { planTarget, type TargetPlan } from './plan.ts';
import { resolveEnvironment, type Platform } from './platform.ts';

export interface SetupOptions {
  platform: Platform;
  env: NodeJS.ProcessEnv;
  /** Editors to set up; all supported ones by default. */
  editors?: readonly EditorId[];
  /** Write the user-level configs (default true). */
  user?: boolean;
  /** Also write the project-level files in this directory. */
  projectDir?: string;
  hostedUrl?: string;
  dryRun?: boolean;
  now?: Date;
}

export interface SetupResult {
  exitCode: number;
  plans: TargetPlan[];
  skipped: SkippedEditor[];
}

export function runMcpSetup(options: SetupOptions, print: (text: string) => void): SetupResult {
  const editors = options.editors && options.editors.length > 0 ? options.editors : EDITOR_IDS;
  const env = resolveEnvironment(options.platform, options.env);
  const user = options.user === false ? { targets: [], skipped: [] } : locateUserConfigs(env, editors);
  const project = options.projectDir
    ? locateProjectConfigs(resolve(options.projectDir), editors)
    : { targets: [], skipped: [] };
  const skipped = [...user.skipped, ...project.skipped];
  const plans = [...user.targets, ...project.targets].map((t) =>
    planTarget(t, { platform: options.platform, ...(options.hostedUrl ? { hostedUrl: options.hostedUrl } : {}) }),
  );

  const lines: string[] = [];
  const say = (text = '') => lines.push(text);
  say(`Signpost MCP setup${options.dryRun ? ' (dry run: nothing is written)' : ''}`);
  say(`The docs server is registered as "${DOCS_ENTRY}": npx ${DOCS_ARGS.join(' ')}`);

  const restart = new Set<string>();
  const notDone: string[] = [];
  let failed = false;

  for (const plan of plans) {
    const { target } = plan;
    const label = `${target.editor.name}${target.scope === 'project' ? ' (project)' : ''}`;
    say();
    say(`${label}: ${target.path}`);
    if (plan.status === 'error') {
      say(`  nothing changed: ${plan.error}`);
      notDone.push(`${label}: ${target.path} was left alone because ${plan.error}.`);
      failed = true;
      continue;
    }
    for (const c of plan.changes) say(`  ${options.dryRun ? 'would change' : 'changed'}: ${c}`);
    for (const k of plan.kept) say(`  unchanged: ${k}`);
    for (const n of plan.notDone) {
      say(`  not done: ${n}`);
      notDone.push(`${label}: ${n}.`);
    }
    if (target.note) say(`  note: ${target.note}`);
    if (plan.status === 'unchanged') {
      say('  the file is already up to date; nothing written');
      continue;
    }
    if (options.dryRun) {
      const diff = unifiedDiff(
        plan.before ?? '',
        plan.after ?? '',
        plan.before === null ? '/dev/null' : target.path,
        target.path,
      );
      say(`  ${plan.status === 'create' ? 'would create the file' : 'would write'}:`);
      for (const line of diff.split('\n')) say(`    ${line}`);
      continue;
    }
    try {
      const { backup } = writePlan(plan, options.now);
      say(plan.status === 'create' ? '  created the file' : '  saved');
      if (backup) say(`  backup of the previous file: ${backup}`);
      restart.add(target.editor.name);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      say(`  could not write the file: ${message}`);
      notDone.push(`${label}: could not write ${target.path} (${message}).`);
      failed = true;
    }
  }

  for (const s of skipped) {
    notDone.push(`${s.editor.name}${s.scope === 'project' ? ' (project)' : ''}: ${s.reason}.`);
  }

  say();
  if (plans.length === 0) {
    say('No supported editor was found (Claude Desktop, Cursor, VS Code, Windsurf), so nothing was set up.');
    say('Install one, or write project-level files with --project <dir>.');
  }
  if (options.dryRun) {
    const wouldChange = plans.filter((p) => p.status === 'change' || p.status === 'create');
    say(
      wouldChange.length > 0
        ? `Dry run: ${wouldChange.length} file(s) would change; nothing was written. Run again without --dry-run to apply.`
        : 'Dry run: everything is already up to date; nothing would change.',
    );
  } else if (restart.size > 0) {
    say(
      `Restart ${joinNames([...restart])} so ${restart.size === 1 ? 'it loads' : 'they load'} the new MCP configuration.`,
    );
  } else if (plans.length > 0 && !failed) {
    say('Everything was already up to date; no file was changed.');
  }
  if (options.platform === 'win32' && project.targets.length > 0) {
    say(`Project files use plain "npx" (not "cmd /c npx") so they work for teammates on every operating system.`);
  }
  if (notDone.length > 0) {
    say();
    say('Not done:');
    for (const n of notDone) say(`  - ${n}`);
  }
  print(lines.join('\n'));
  return { exitCode: failed ? 1 : 0, plans, skipped };
}

function joinNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
