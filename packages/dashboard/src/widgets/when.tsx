/** A moment as the lists show it: short and in the reader's time zone, the exact instant kept in `dateTime`. */
import { when } from '../api/features.ts';

export function When({ at }: { at: string }) {
  return <time dateTime={at}>{when(at)}</time>;
}
