/**
 * The last line for database failures that no store turned into an answer of its own: each is a
 * fact about the request or about timing, not a server fault, so none of them may be a 500.
 * Stores should still catch them where they know better (a field name, a 400 instead of a 404).
 */
import { isForeignKeyViolation, isInputFault, isRetryableConflict, isUniqueViolation } from '../db/failures.ts';

export function databaseErrorAnswer(error: unknown): [number, { error: string }] | undefined {
  // Still colliding after the adapter's retries: the client may simply send it again.
  if (isRetryableConflict(error))
    return [409, { error: 'Another request changed the same data at the same moment; try again' }];
  // A row the write refers to was deleted while the request ran: as if it had never been there.
  if (isForeignKeyViolation(error)) return [404, { error: 'Not found' }];
  // Two requests created the same thing at once and the store did not expect it: the second clashes.
  if (isUniqueViolation(error))
    return [409, { error: 'It already exists: another request created it at the same moment' }];
  if (isInputFault(error)) return [400, { error: 'The request holds a value that cannot be stored' }];
  return undefined;
}
