/**
 * The DSN a Sentry SDK takes: `<scheme>://<key>@<host>/<ingest number>`, host from the server's
 * public URL (with its port, and its path when Signpost is served under one). Keys are letters,
 * digits and underscores, as a DSN's user part must be.
 */
export function sentryDsn(publicUrl: string, key: string, ingestNumber: number): string {
  const url = new URL(publicUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${key}@${url.host}${path}/${ingestNumber}`;
}

/** Where only the key's prefix is known (keys are stored hashed): `<scheme>://<key>@<host>/<n>`. */
export function sentryDsnTemplate(publicUrl: string, ingestNumber: number): string {
  return sentryDsn(publicUrl, '<key>', ingestNumber);
}
