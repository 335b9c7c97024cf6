/** How a screen looks while its data loads, when there is none, and when loading failed. */
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.ts';
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

/**
 * A page's one thing (an idea, a log group) once read. While it loads, its loading state; when the
 * API says it does not exist (404), "<title> not found" and `notFound` in words; another failure
 * in words under the title.
 */
export function FoundView<T>({
  query,
  title,
  what,
  notFound,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  /** The page's heading when there is nothing to show: "Idea". */
  title: string;
  /** What loads, for the loading state: "the idea". */
  what: string;
  notFound: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <h1>{title} not found</h1>
        <Empty>
          <p>{notFound}</p>
        </Empty>
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        <h1>{title}</h1>
        <ErrorNote error={query.error} />
      </>
    );
  }
  return <>{children(query.data as T)}</>;
}
