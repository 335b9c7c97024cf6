/** How a screen looks while its data loads, when there is none, and when loading failed. */
import type { ReactNode } from 'react';
import { ErrorNote } from '../ui.tsx';

export function Loading({ what = '' }: { what?: string }) {
  return (
    <p className="loading" role="status">
      Loading{what ? ` ${what}` : ''}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/** Renders `children(data)` once a query has data; its loading or error state before that. */
export function QueryView<T>({
  query,
  what,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  what?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what ?? ''} />;
  if (query.isError) return <ErrorNote error={query.error} />;
  return <>{children(query.data as T)}</>;
}

/**
 * A list as every list screen shows it: loading while any of its queries is, the first failure in
 * words, `empty` in the empty-state box when there is nothing to list, and else the list (a
 * function, so that it reads the queries' data only once they have it).
 */
export function ListStates({
  queries,
  what,
  isEmpty,
  empty,
  children,
}: {
  queries: readonly { isPending: boolean; isError: boolean; error: unknown }[];
  /** What loads, for the loading state: "ideas". */
  what: string;
  isEmpty: boolean;
  empty: ReactNode;
  children: () => ReactNode;
}) {
  if (queries.some((query) => query.isPending)) return <Loading what={what} />;
  const failed = queries.find((query) => query.isError);
  if (failed) return <ErrorNote error={failed.error} />;
  if (isEmpty) return <Empty>{empty}</Empty>;
  return <>{children()}</>;
}
