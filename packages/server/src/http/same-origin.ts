/**
 * The CSRF rule for writes a browser sends with the session cookie (the management API and the
 * OAuth sign-in and consent forms): they must come from this server's own pages.
 *
 * - A present `Origin` must be this server's origin (its PUBLIC_URL, or the origin it was asked on).
 * - `Origin: null` is accepted only when the browser also says `Sec-Fetch-Site: same-origin`.
 *   Browsers send `null` for a same-origin post from a page whose referrer policy is
 *   `no-referrer`, but also for sandboxed frames, `data:` pages and cross-site redirects; for
 *   those the browser says `cross-site`. Pages cannot set `Sec-Fetch-*` headers themselves.
 * - With no `Origin` (scripts, the CLI: not a browser's post), a request is refused only when
 *   the browser says it came from another site.
 */
import type { FastifyRequest } from 'fastify';

export function fromOwnOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (origin === 'null') return site === 'same-origin';
  if (origin !== undefined)
    return origin === new URL(publicUrl).origin || origin === `${request.protocol}://${request.host}`;
  return site === undefined || site === 'same-origin' || site === 'none';
}
