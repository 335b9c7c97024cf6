import { useEffect, useState } from 'react';

/** Whether the reader's system asks for dark colours, kept up to date (charts redraw their colours). */
export function useDarkScheme(): boolean {
  const query = typeof window === 'undefined' ? null : window.matchMedia('(prefers-color-scheme: dark)');
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const change = () => setDark(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, [query]);
  return dark;
}
