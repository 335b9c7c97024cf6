/** Options and argument parsers shared by the management commands. */
import { type Command, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import { Client } from './client.ts';
import { CliError, EXIT } from './errors.ts';
import { resolveTarget } from './config.ts';

export interface CommonFlags {
  url?: string;
  json?: boolean;
  project?: string;
}

/** The exit codes of EXIT for the command line itself: help and version exit 0, usage errors 2. */
export function usageExits(command: Command): Command {
  return command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.usage));
}

/** `--url` and `--json`, on every command that talks to a server. */
export function withServer(command: Command): Command {
  return command
    .option(
      '--url <url>',
      'Signpost server URL (default: $SIGNPOST_URL, else the one you logged in to, else http://localhost:3000)',
    )
    .option('--json', 'print JSON for scripts instead of text');
}

/** `--project`, on every command that acts on one project. */
export function withProject(command: Command): Command {
  return withServer(command).option(
    '-p, --project <id>',
    'project id (default: $SIGNPOST_PROJECT, else the one chosen with `signpost projects use`)',
  );
}

/** The signed-in client and the project a command acts on. */
export function projectContext(flags: CommonFlags): { client: Client; projectId: string; base: string } {
  const target = resolveTarget(flags);
  const client = Client.signedIn(target);
  if (!target.project) {
    throw new CliError(
      'No project given: pass --project <id>, set SIGNPOST_PROJECT, or run `signpost projects use <id>`',
      EXIT.usage,
    );
  }
  return { client, projectId: target.project, base: `/projects/${encodeURIComponent(target.project)}` };
}

export function signedInClient(flags: CommonFlags): Client {
  return Client.signedIn(resolveTarget(flags));
}

export function integer(name: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return value;
  };
}

export function oneOf<const T extends readonly string[]>(values: T) {
  return (raw: string): T[number] => {
    if (!values.includes(raw)) throw new InvalidArgumentError(`Use one of: ${values.join(', ')}.`);
    return raw as T[number];
  };
}

export function onOff(raw: string): boolean {
  const value = (
    { on: true, true: true, yes: true, enable: true, off: false, false: false, no: false, disable: false } as Record<
      string,
      boolean
    >
  )[raw.toLowerCase()];
  if (value === undefined) throw new InvalidArgumentError('Use on or off.');
  return value;
}

export function list(raw: string): string[] {
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** `--limit` and `--offset` for list commands. */
export function withPaging(command: Command, defaultLimit: number): Command {
  return command
    .option('--limit <n>', `rows per page (default ${defaultLimit})`, integer('--limit', 1, 1000))
    .option('--offset <n>', 'rows to skip', integer('--offset', 0));
}

/** A text given inline or read from a file (`-` is standard input). */
export function readText(inline: string | undefined, file: string | undefined, what: string): string | undefined {
  if (inline !== undefined && file !== undefined) throw new CliError(`Give the ${what} inline or as a file, not both`);
  if (file === undefined) return inline;
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.environment);
  }
}

/** Drops undefined fields, so a PATCH sends only what was given. */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function requireChanges(body: Record<string, unknown>, hint: string): void {
  if (Object.keys(body).length === 0) throw new CliError(`Nothing to change: give at least one of ${hint}`);
}
