/**
 * Lists the API pages through with `nextCursor` (audit entries, log groups and lines, people, a
 * flag's history), read with useInfiniteQuery: the first page has no cursor, each next one the
 * cursor the previous page gave, until it gives none.
 */
export const CURSOR_PAGES = {
  initialPageParam: '',
  getNextPageParam: (last: { nextCursor?: string | null }) => last.nextCursor ?? undefined,
};

/** The paging part of a list's query: the page size and, after the first page, the cursor. */
export function pageQuery(limit: number, cursor: string): { limit: number; cursor?: string } {
  return cursor ? { limit, cursor } : { limit };
}
