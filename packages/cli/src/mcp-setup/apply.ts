/** Writes a planned config file: a backup of the old one first, then the new text, atomically. */
import {
  chmodSync,
  copyFileSync,
  constants,
  existsSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { TargetPlan } from './plan.ts';

export interface Written {
  backup: string | null;
}

export function writePlan(plan: TargetPlan, now: Date = new Date()): Written {
  if (plan.after === null || (plan.status !== 'create' && plan.status !== 'change')) return { backup: null };
  // A config file that is a symlink (dotfile managers) is written through, so the link stays a link.
  const path = plan.status === 'change' ? realpathSync(plan.target.path) : plan.target.path;
  mkdirSync(dirname(path), { recursive: true });
  let backup: string | null = null;
  if (plan.status === 'change') {
    backup = backupPath(path, now);
    copyFileSync(path, backup, constants.COPYFILE_EXCL);
  }
  const tmp = `${path}.signpost-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, plan.after, { encoding: 'utf8', flag: 'wx' });
    if (plan.status === 'change') chmodSync(tmp, statSync(path).mode & 0o777);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  return { backup };
}

/** `<file>.signpost-backup-20261122-075501`, with a counter if that exists already. */
function backupPath(path: string, now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  let candidate = `${path}.signpost-backup-${stamp}`;
  for (let i = 2; existsSync(candidate); i++) candidate = `${path}.signpost-backup-${stamp}-${i}`;
  return candidate;
}
