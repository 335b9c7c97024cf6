import { type SetURLSearchParams, useSearchParams } from 'react-router';

/** Parameters to set (an empty value removes one), or a function of the latest parameters. */
export type ViewChanges = Record<string, string> | ((latest: URLSearchParams) => Record<string, string>);

/**
 * A list screen's view (search, filters, sort, page) lives in the URL, so it can be shared and
 * Back returns to the previous one. `update` sets the given parameters (an empty value removes
 * one); any change but the page's starts again at the first page.
 */
export function useUrlView(): [URLSearchParams, (changes: ViewChanges) => void] {
  const [params, setParams] = useSearchParams();
  return [params, (changes) => updateParams(setParams, changes)];
}

function updateParams(setParams: SetURLSearchParams, changes: ViewChanges) {
  // The address bar, not the render's `params`: two changes made before a re-render (quick
  // keyboard toggles) must build on each other, and React Router's updater sees the render's.
  const next = new URLSearchParams(window.location.search);
  const wanted = typeof changes === 'function' ? changes(new URLSearchParams(next)) : changes;
  for (const [name, value] of Object.entries(wanted)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  if (!('page' in wanted)) next.delete('page');
  setParams(next);
}
