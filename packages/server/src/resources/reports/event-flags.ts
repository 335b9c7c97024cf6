/**
 * The feature flags an error event carries (issue 33): Sentry's feature-flag integrations, and
 * the error tracker, put the last evaluations before the error in `contexts.flags.values` as
 * `{flag, result}`, newest last (a bounded buffer; Sentry keeps 100). Kept as sent with the
 * event; read out here, leaving out entries that are not of that shape.
 */
const MAX_FLAGS = 100;

export function eventFlags(event: Record<string, unknown>): { flag: string; result: unknown }[] {
  const contexts = event['contexts'];
  const flags = contexts && typeof contexts === 'object' ? (contexts as Record<string, unknown>)['flags'] : undefined;
  const values = flags && typeof flags === 'object' ? (flags as Record<string, unknown>)['values'] : undefined;
  if (!Array.isArray(values)) return [];
  const found: { flag: string; result: unknown }[] = [];
  for (const value of values.slice(-MAX_FLAGS)) {
    if (!value || typeof value !== 'object') continue;
    const { flag, result } = value as Record<string, unknown>;
    if (typeof flag !== 'string' || flag === '') continue;
    found.push({ flag: flag.slice(0, 200), result: result === undefined ? null : result });
  }
  return found;
}
