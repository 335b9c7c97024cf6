/** The lifecycle of an error group: what a repeat does to its status, and how releases order. */
import { compareText } from '../../kernel/compare-text.ts';

/** The status of a group that occurs again, from its status before and the report's release. */
export function lifecycleAfterRepeat(status: string, resolvedInRelease: string | null, version: string | null) {
  if (status !== 'resolved') return status;
  if (resolvedInRelease === null) return 'regressed';
  return version !== null && compareVersions(version, resolvedInRelease) > 0 ? 'regressed' : 'resolved';
}

/** Orders release names: numeric parts as numbers ("1.10.0" after "1.9.2"), other parts as text. */
export function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/i, '').split(/[.\-+_]/);
  const pb = b.replace(/^v/i, '').split(/[.\-+_]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    const order = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : compareText(x, y);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}
