/**
 * A query of one management API call: its data once read, or the refusal as an ApiError in words
 * (`unwrap`), cached under `queryKey`. The screens name the key and the call; the rest of
 * React Query's options (a refresh interval, `enabled`, keeping the previous page) pass through.
 */
import { type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from './client.ts';

type ApiAnswer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

export function useApiQuery<T>(
  queryKey: readonly unknown[],
  call: () => ApiAnswer<T>,
  options: Omit<UseQueryOptions<T>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery({ queryKey, queryFn: () => unwrap(call()), ...options });
}
