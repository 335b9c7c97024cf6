'use client';
// app/global-error.tsx: errors the root layout could not handle.
import { useEffect } from 'react';
import { captureException } from '@signpost/error-tracker';

export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    void captureException(error, { severity: 'critical', metadata: { digest: error.digest } });
  }, [error]);
  return (
    <html lang="en">
      <body>
        <h2>Something went wrong.</h2>
        <button type="button" onClick={() => reset()}>
          Try again
        </button>
      </body>
    </html>
  );
}
