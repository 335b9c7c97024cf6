/** A process's resident memory, from /proc/<pid>/status (Linux; undefined elsewhere). */
import { readFileSync } from 'node:fs';

export interface Memory {
  /** VmRSS: resident now, MiB. */
  rssMiB: number;
  /** VmHWM: the most it was ever resident, MiB. */
  peakMiB: number;
}

export function memoryOf(pid: number | undefined): Memory | undefined {
  if (pid === undefined) return undefined;
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  const rss = kib('VmRSS');
  const peak = kib('VmHWM');
  if (!Number.isFinite(rss)) return undefined;
  return { rssMiB: Math.round((rss / 1024) * 10) / 10, peakMiB: Math.round((peak / 1024) * 10) / 10 };
}
