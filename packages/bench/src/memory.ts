/** A process's resident memory, from /proc/<pid>/status (Linux; undefined elsewhere). */
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

export interface Memory {
  /** VmRSS: resident now, MiB. */
  rssMiB: number;
  /** VmHWM: the most it was ever resident, MiB. */
  peakMiB: number;
  /** Threads: the process's threads now (each SQLite read worker is one, with a V8 heap). */
  threads: number;
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
  const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: Math.round((rss / 1024) * 10) / 10, peakMiB: Math.round((peak / 1024) * 10) / 10, threads };
}

/**
 * Waits `seconds` while `pid` rests, reading its memory every `every` seconds: the last reading
 * is the rested one; the others show when (and whether) the server gave its memory back, which a
 * single reading at the end cannot tell from a rest that never came.
 */
export async function restingMemory(
  pid: number | undefined,
  seconds: number,
  every = 10,
): Promise<{ rested: Memory | undefined; timeline: { second: number; rssMiB: number; threads: number }[] }> {
  const timeline: { second: number; rssMiB: number; threads: number }[] = [];
  const started = Date.now();
  let rested: Memory | undefined;
  for (let second = Math.min(every, seconds); ; second = Math.min(second + every, seconds)) {
    await delay(Math.max(0, started + second * 1000 - Date.now()));
    rested = memoryOf(pid);
    if (rested) timeline.push({ second, rssMiB: rested.rssMiB, threads: rested.threads });
    if (second >= seconds) return { rested, timeline };
  }
}
