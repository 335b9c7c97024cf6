/** A small unified line diff, for `--dry-run`. */

export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string, context = 3): string {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = diffLines(a, b);
  const changed = ops.flatMap((o, index) => (o.kind === ' ' ? [] : [index]));
  const groups: [number, number][] = [];
  for (const index of changed) {
    const last = groups[groups.length - 1];
    if (last && index - last[1] <= 2 * context + 1) last[1] = index;
    else groups.push([index, index]);
  }
  const hunks: string[] = [];
  for (const [first, last] of groups) {
    const slice = ops.slice(Math.max(0, first - context), Math.min(ops.length, last + context + 1));
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    const oldStart = slice[0]!.oldLine;
    const newStart = slice[0]!.newLine;
    hunks.push(
      `@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`,
    );
    for (const o of slice) hunks.push(`${o.kind}${o.text}`);
  }
  if (hunks.length === 0) return '';
  return [`--- ${oldName}`, `+++ ${newName}`, ...hunks].join('\n');
}

interface Op {
  kind: ' ' | '-' | '+';
  text: string;
  oldLine: number;
  newLine: number;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Longest-common-subsequence diff; config files are small, so O(n*m) is fine. */
function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i]!, oldLine: i + 1, newLine: j + 1 });
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      ops.push({ kind: '-', text: a[i]!, oldLine: i + 1, newLine: j + 1 });
      i++;
    } else {
      ops.push({ kind: '+', text: b[j]!, oldLine: i + 1, newLine: j + 1 });
      j++;
    }
  }
  return ops;
}
