/**
 * What every scenario is made of: its shape (a wrk request, a target, a check run by hand before
 * measuring) and the check's helpers, which stop the run on a wrong answer.
 */
import type { WrkRequest } from './wrk.ts';

export const API = '/api/public/v1';

export interface Scenario {
  id: string;
  label: string;
  request: WrkRequest;
  /**
   * What the issue asks of it: a share of the ceiling, log entries per second, or a share of
   * another scenario's ratio to the ceiling on the same database (`of`, measured in the same run).
   */
  target?: { ratio: number } | { entriesPerSecond: number } | { of: string; share: number };
  entriesPerRequest?: number;
  /** Checks one request by hand before the run: right status, right shape. */
  check: (origin: string) => Promise<void>;
}

/** A wrong answer or a missing tool: the run stops (after its clean-up, which drops a PostgreSQL database). */
export class BenchFailure extends Error {}

export function fail(message: string): never {
  throw new BenchFailure(message);
}

export async function expectStatus(response: Response, status: number, what: string): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status) fail(`${what}: expected ${status}, got ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}
