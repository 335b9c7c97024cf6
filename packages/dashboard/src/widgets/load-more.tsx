/** The next page of a list read by cursor, on request; nothing once the last page is shown. */
import type { ReactNode } from 'react';
import { Button } from '../ui.tsx';

export function LoadMore({
  list,
  children = 'Load more',
}: {
  /** A useInfiniteQuery result. */
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  children?: ReactNode;
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="row">
      <Button variant="secondary" busy={list.isFetchingNextPage} onPress={() => list.fetchNextPage()}>
        {children}
      </Button>
    </div>
  );
}
