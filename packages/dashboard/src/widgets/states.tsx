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
