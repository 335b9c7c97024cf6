/** RFC 8707 resource indicators compare without a trailing slash or fragment. */
export function sameResource(a: string, b: string): boolean {
  const normal = (value: string) => value.replace(/#.*$/, '').replace(/\/+$/, '');
  return normal(a) === normal(b);
}

/** The redirect back to the client, with the response parameters added to its query. */
export function redirectWith(redirectUri: string, params: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) url.searchParams.set(name, value);
  }
  return url.toString();
}
