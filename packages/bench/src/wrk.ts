/**
 * Runs wrk (https://github.com/wg/wrk, Debian package `wrk`) as its own process against one
 * URL and returns its figures. The request of each scenario is described by a small Lua
 * script generated here; `done()` prints the summary as one JSON line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WrkRequest {
  method?: 'GET' | 'POST';
  /** Path and query, e.g. `/api/public/v1/features`. */
  path: string;
  headers?: Record<string, string>;
  /** A fixed body sent with every request. */
  body?: string;
  /**
   * A body that differs per request: `parts` joined by `<tag>-<n>`, n counting up from 1 and tag
   * new for each wrk run, so a warm-up and the runs after it never send the same body twice.
   */
  uniqueBody?: { parts: string[] };
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  bytes: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  threads: number;
  /** CPU core to pin wrk to (with taskset), if any. */
  core?: number | undefined;
  scriptDir: string;
}

const luaString = (value: string): string => {
  // A long bracket whose level does not occur in the text, so nothing needs escaping.
  let level = '';
  while (value.includes(`]${level}]`)) level += '=';
  return `[${level}[${value}]${level}]`;
};

function script(request: WrkRequest, tag: string): string {
  const lines = [`wrk.method = ${luaString(request.method ?? 'GET')}`, `wrk.path = ${luaString(request.path)}`];
  for (const [name, value] of Object.entries(request.headers ?? {}))
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  if (request.uniqueBody) {
    lines.push(
      'local counter = 0',
      `local parts = { ${request.uniqueBody.parts.map(luaString).join(', ')} }`,
      'request = function()',
      '  counter = counter + 1',
      `  return wrk.format(nil, nil, nil, table.concat(parts, ${luaString(`${tag}-`)} .. counter))`,
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d}}\\n\',',
    '    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

export function wrkVersion(): string | undefined {
  const result = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (result.error) return undefined;
  return `${result.stdout}${result.stderr}`.split('\n')[0]?.trim();
}

let scripts = 0;

export async function runWrk(origin: string, request: WrkRequest, options: WrkOptions): Promise<WrkResult> {
  const file = join(options.scriptDir, `scenario-${++scripts}.lua`);
  writeFileSync(file, script(request, `r${scripts}`));
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    file,
    origin + request.path,
  ];
  const [command, argv] =
    options.core === undefined ? ['wrk', args] : ['taskset', ['-c', String(options.core), 'wrk', ...args]];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    // 'close', not 'exit': a process can exit before its output has been read, and a wrk whose
    // summary line was still in the pipe read as "printed no summary" (twice with eleven at once).
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))));
  });
  const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no summary:\n${output}`);
  const raw = JSON.parse(line.slice('WRK_JSON '.length)) as {
    requests: number;
    duration_us: number;
    bytes: number;
    errors: WrkResult['errors'];
    latency_us: Record<'mean' | 'p50' | 'p90' | 'p99' | 'max', number>;
  };
  const ms = (us: number) => Math.round(us) / 1000;
  const seconds = raw.duration_us / 1e6;
  return {
    requests: raw.requests,
    seconds,
    requestsPerSecond: raw.requests / seconds,
    bytes: raw.bytes,
    errors: raw.errors,
    latencyMs: {
      mean: ms(raw.latency_us.mean),
      p50: ms(raw.latency_us.p50),
      p90: ms(raw.latency_us.p90),
      p99: ms(raw.latency_us.p99),
      max: ms(raw.latency_us.max),
    },
  };
}

/** Socket errors and non-2xx/3xx answers of a run, all kinds together. */
export const errorsOf = (errors: WrkResult['errors']): number => Object.values(errors).reduce((a, b) => a + b, 0);
