'use client';
// app/signpost.tsx: starts browser error tracking once; render it in app/layout.tsx.
// NEXT_PUBLIC_SIGNPOST_API_KEY must be a key with the errors:write scope.
import { useEffect, type ReactNode } from 'react';
import { init } from '@signpost/error-tracker';
import { ErrorBoundary } from '@signpost/error-tracker/react';

export function SignpostErrorTracking({ children }: { children: ReactNode }) {
  useEffect(() => {
    init({
      apiKey: process.env.NEXT_PUBLIC_SIGNPOST_API_KEY,
      baseUrl: process.env.NEXT_PUBLIC_SIGNPOST_URL,
      environment: 'production',
    });
  }, []);
  return <ErrorBoundary fallback={<p>Something went wrong.</p>}>{children}</ErrorBoundary>;
}
