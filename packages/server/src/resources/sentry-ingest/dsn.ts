/**
 * The DSN a Sentry SDK takes: `<scheme>://<key>@<host>/<ingest number>`, host from the server's
 * public URL (with its port, and its path when Signpost runs under one).
 */
export function sentryDsn(publicUrl: string, key: string, ingestNumber: number): string {
  const url = new URL(publicUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${encodeURIComponent(key)}@${url.host}${path}/${ingestNumber}`;
}
