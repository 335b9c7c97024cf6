/**
 * Failures of management commands and the exit codes they end with:
 *   1  the server refused the request (an API error: 4xx or 5xx)
 *   2  the command line is wrong (unknown option, missing argument, bad value)
 *   3  nothing to talk to: not signed in, server unreachable, server not installed
 */
export const EXIT = { api: 1, usage: 2, environment: 3 } as const;

export class CliError extends Error {
  readonly exitCode: number;
  readonly lines: string[];
  constructor(message: string, exitCode: number = EXIT.usage, lines: string[] = []) {
    super(message);
    this.exitCode = exitCode;
    this.lines = lines;
  }
}

/** An error answer of the management API: `{ error, details? }` and its status. */
export class ApiError extends CliError {
  readonly status: number;
  /** The server's stable error code (`NotFound`, `Conflict`, …), when it sent one. */
  readonly code: string | undefined;
  readonly body: unknown;
  constructor(status: number, message: string, details: Array<{ field: string; message: string }>, body: unknown) {
    super(
      message,
      EXIT.api,
      details.map((d) => `${d.field}: ${d.message}`),
    );
    this.status = status;
    this.body = body;
    const code = (body as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * Runs a command's action: errors are printed (`signpost: …` on stderr, or a JSON error object on
 * stdout with --json) and end the process with their exit code instead of a stack trace.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (error) {
      report(error, args);
    }
  };
}

function report(error: unknown, args: unknown[]): void {
  const json = args.some((arg) => isCommandWithJson(arg));
  if (error instanceof CliError) {
    if (json) {
      const body = error instanceof ApiError ? error.body : { error: error.message };
      process.stdout.write(
        JSON.stringify(error instanceof ApiError ? { status: error.status, ...(body as object) } : body, null, 2) +
          '\n',
      );
    }
    process.stderr.write(`signpost: ${error.message}\n${error.lines.map((line) => `  ${line}\n`).join('')}`);
    process.exitCode = error.exitCode;
    return;
  }
  process.stderr.write(`signpost: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = EXIT.api;
}

function isCommandWithJson(arg: unknown): boolean {
  const candidate = arg as { optsWithGlobals?: () => Record<string, unknown> } | null;
  return typeof candidate?.optsWithGlobals === 'function' && candidate.optsWithGlobals()['json'] === true;
}
