import { useEffect } from 'react';

/** Sets the tab's title to "<what> · Signpost" while the screen is shown. */
export function useTitle(what: string): void {
  useEffect(() => {
    document.title = `${what} · Signpost`;
  }, [what]);
}
