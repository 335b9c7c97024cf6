/**
 * Entity tags for cached reads. Ours are strong tags of a content hash. `If-None-Match` is
 * matched the way clients send it in practice: quoted or bare, weak (`W/`) or strong, one tag
 * or a comma-separated list, or `*`.
 */
export function etagOf(hash: string): string {
  return `"${hash}"`;
}

export function ifNoneMatchHits(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  // What our own clients send back, verbatim: no need to take the header apart.
  if (header.length === hash.length + 2 && header === `"${hash}"`) return true;
  return header.split(',').some((token) => {
    const tag = token
      .trim()
      .replace(/^W\//i, '')
      .replace(/^"(.*)"$/, '$1');
    return tag === '*' || tag === hash;
  });
}
