/**
 * A list read page by page through `nextCursor` (audit entries, people, log groups and lines, a
 * flag's history): the query of its pages, cached under `queryKey`, and the rows of all pages read
 * so far. `call` asks for one page with the paging it is given; `rowsOf` picks a page's rows.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { unwrap } from './client.ts';
import { CURSOR_PAGES, pageQuery } from './cursor.ts';

type ApiAnswer<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

export interface CursorListOptions {
  enabled?: boolean;
  /** Show the rows of the last query while a changed one (new filters) loads, not a blank list. */
  keepPrevious?: boolean;
}

export function useCursorList<Page extends { nextCursor?: string | null }, Row>(
  queryKey: readonly unknown[],
  limit: number,
  call: (paging: { limit: number; cursor?: string }) => ApiAnswer<Page>,
  rowsOf: (page: Page) => Row[],
  { enabled, keepPrevious = false }: CursorListOptions = {},
) {
  const list = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => unwrap(call(pageQuery(limit, pageParam))),
    ...CURSOR_PAGES,
    ...(enabled === undefined ? {} : { enabled }),
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
  return { list, rows: list.data?.pages.flatMap(rowsOf) ?? [] };
}
