import { type SetURLSearchParams, useSearchParams } from 'react-router';

/**
 * A list screen's view (search, filters, sort, page) lives in the URL, so it can be shared and
 * Back returns to the previous one. `update` sets the given parameters (an empty value removes
 * one); any change but the page's starts again at the first page.
 */
export function useUrlView(): [URLSearchParams, (changes: Record<string, string>) => void] {
  const [params, setParams] = useSearchParams();
  return [params, (changes) => updateParams(params, setParams, changes)];
}

function updateParams(params: URLSearchParams, setParams: SetURLSearchParams, changes: Record<string, string>) {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  if (!('page' in changes)) next.delete('page');
  setParams(next);
}
