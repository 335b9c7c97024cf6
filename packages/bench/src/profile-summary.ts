/**
 * Summarises V8 CPU profiles (`--cpu-prof`, e.g. the browser-event bench's
 * `BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`): the busy samples (idle, GC and
 * program excluded) by self time, the top functions, and the share of each named function's
 * subtree (the outermost match on a stack counts, so a function calling itself counts once), and
 * the top functions by inclusive time.
 * An async function resumed after an `await` shows as its own frame under the microtask queue,
 * so a subtree counts every part of it, not only what ran before its first `await`.
 *
 *   node src/profile-summary.ts /tmp/prof/*.cpuprofile [--roots envelope,writeErrorGroups] [--top 40]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, '').replace(/^.*\/packages\//, '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
};

function summarise(profile: Profile, roots: readonly string[], top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  let total = 0;
  let gc = 0;
  const self = new Map<string, number>();
  const inRoot = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, n] of hits) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(garbage collector)') gc += n;
    if (IDLE.has(name) && name !== '(garbage collector)') continue;
    total += n;
    self.set(label(node), (self.get(label(node)) ?? 0) + n);
    // The outermost frame of the stack whose function is one of the roots.
    let found: string | undefined;
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!;
      const fn = frame.callFrame.functionName;
      if (roots.includes(fn)) found = fn;
      onStack.add(label(frame));
    }
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + n);
    if (found) inRoot.set(found, (inRoot.get(found) ?? 0) + n);
  }
  const pct = (n: number) => `${((n / total) * 100).toFixed(1)} %`;
  const lines = [`busy samples ${total} (of ${profile.samples.length}); garbage collector ${pct(gc)} of busy`];
  for (const root of roots) lines.push(`  subtree ${root}: ${pct(inRoot.get(root) ?? 0)}`);
  lines.push('self time:');
  for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(n).padStart(7)}  ${name}`);
  lines.push('inclusive time (a function counted once per sample):');
  for (const [name, n] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(n).padStart(7)}  ${name}`);
  return lines.join('\n');
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const roots = (option('--roots') ?? 'envelope,writeErrorGroups,commitPending').split(',');
const top = Number(option('--top') ?? 40);
for (const file of args) {
  process.stdout.write(`${file}\n${summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, roots, top)}\n`);
}
