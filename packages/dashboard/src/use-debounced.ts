import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `ms` (a search box's text: the query runs when the
 * typing pauses, not on every key).
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
