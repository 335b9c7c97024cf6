/**
 * What a write answered while the database failed (issue 37's fault tests): the status, its
 * Retry-After, and the id of what was acknowledged, so the test can look for it afterwards.
 */
import assert from 'node:assert/strict';

export interface Outcome {
  status: number;
  retryAfter: string | null;
  id?: string;
  body?: string;
}

/** POST /bugs with `title` (distinct titles: deduplication folds none into another). */
export async function postBug(baseUrl: string, key: string, title: string, message: string): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}/bugs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ title, message }),
    });
    const text = await response.text();
    const outcome: Outcome = { status: response.status, retryAfter: response.headers.get('retry-after') };
    if (response.status === 201) outcome.id = JSON.parse(text).id;
    else outcome.body = text.slice(0, 300);
    return outcome;
  } catch (error) {
    return { status: 0, retryAfter: null, body: String(error) };
  }
}

/** Every answer stored the write (201) or refused it as unavailable (503 with Retry-After): never a 5xx else. */
export function assertNoServerFault(outcomes: readonly Outcome[]): void {
  for (const outcome of outcomes) {
    assert.ok(
      outcome.status === 201 || outcome.status === 503,
      `every answer is 201 or 503, got ${outcome.status}: ${outcome.body}`,
    );
    if (outcome.status === 503) {
      assert.match(outcome.retryAfter ?? '', /^\d+$/, '503 carries Retry-After in seconds');
      assert.equal(JSON.parse(outcome.body!).code, 'Unavailable');
    }
  }
}

/** The ids of what was acknowledged. */
export const acknowledged = (outcomes: readonly Outcome[]): string[] =>
  outcomes.filter((outcome) => outcome.id).map((outcome) => outcome.id!);
