/**
 * The artifact names a frame's file may have been uploaded under, as Sentry looks them up: the
 * URL itself, then `~/path` (any host), with and without the query string; and a map's URL from
 * a minified file's sourceMappingURL, relative to that file.
 */

/** `~/…` names (host-less) parse as URLs under this made-up origin. */
const TILDE_ORIGIN = 'http://tilde.invalid';

function parse(url: string): URL | undefined {
  try {
    return url.startsWith('~/') ? new URL(url.slice(1), TILDE_ORIGIN) : new URL(url);
  } catch {
    return undefined;
  }
}

function unparse(url: URL, tilde: boolean): string {
  return tilde ? `~${url.pathname}${url.search}` : url.href;
}

/** Candidate names for a file URL (`https://shop.example/assets/app.js?v=2`, `app:///main.js`). */
export function candidateNames(fileUrl: string): string[] {
  const names = [fileUrl];
  const url = parse(fileUrl);
  if (url) {
    const withoutQuery = `${url.origin === 'null' ? `${url.protocol}//${url.host}` : url.origin}${url.pathname}`;
    if (!fileUrl.startsWith('~/')) {
      if (url.search) names.push(withoutQuery);
      names.push(`~${url.pathname}${url.search}`);
      if (url.search) names.push(`~${url.pathname}`);
    } else if (url.search) {
      names.push(`~${url.pathname}`);
    }
  }
  return [...new Set(names)];
}

/** A sourceMappingURL resolved against the minified file's name (`~/a/app.js` + `app.js.map`). */
export function resolveRelative(reference: string, baseName: string): string {
  const tilde = baseName.startsWith('~/');
  const base = parse(baseName);
  if (!base) return reference;
  try {
    const resolved = new URL(reference, base);
    if (tilde && resolved.origin !== TILDE_ORIGIN) return resolved.href;
    return unparse(resolved, tilde);
  } catch {
    return reference;
  }
}

/**
 * An original source's shown file name: the map's `sources` entry without bundler schemes and
 * leading `./`, `../` or `~/` (`webpack://shop/./src/cart.ts` → `src/cart.ts`).
 */
export function displayName(source: string): string {
  return source
    .replace(/^webpack:\/\/[^/]*\//, '')
    .replace(/^[a-z][a-z0-9+.-]*:\/\/\/?/i, '')
    .replace(/^(\.{1,2}\/|~\/|\/)+/, '');
}
