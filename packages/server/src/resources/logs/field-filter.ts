/**
 * The log explorer's field syntax (issue 32), parsed out of a search text:
 *
 *   data.orderId = 42        the field equals 42 (the number or the string "42")
 *   data.path = /api/*       the field starts with "/api/" (a trailing `*`)
 *   data.user.plan = "pro x" quoted values may hold spaces
 *   has:data.orderId         the field is present
 *
 * A path is up to 5 names of letters, digits, `_`, `-` and `@` after `data.`. What is left is
 * plain text searched in the message, category and the line's data.
 */
import { BadRequestError } from '../../kernel/errors.ts';

export type FieldFilter =
  | { op: 'eq'; path: string[]; value: string }
  | { op: 'prefix'; path: string[]; value: string }
  | { op: 'has'; path: string[] };

const NAME = /^[\w@-]{1,100}$/;
const CLAUSE = /has:data\.([\w@.-]+)|data\.([\w@.-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|(\S+))/g;
export const MAX_FIELD_FILTERS = 5;

function pathOf(raw: string, field: string): string[] {
  const path = raw.split('.');
  if (path.length > 5 || path.some((name) => !NAME.test(name))) {
    const message = `data.${raw} is not a field path (names of letters, digits, _, - and @, at most 5)`;
    throw new BadRequestError(`Invalid query parameter ${field}: ${message}`, [{ field, message }]);
  }
  return path;
}

/** Splits `text` into its field clauses and the plain text that remains (undefined when none). */
export function parseLogSearch(
  text: string | undefined,
  field = 'q',
): { fields: FieldFilter[]; text: string | undefined } {
  if (text === undefined) return { fields: [], text: undefined };
  const fields: FieldFilter[] = [];
  const rest = text.replace(CLAUSE, (_match, hasPath: string, eqPath: string, quoted: string, bare: string) => {
    if (hasPath !== undefined) fields.push({ op: 'has', path: pathOf(hasPath, field) });
    else {
      const raw = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : bare;
      const path = pathOf(eqPath, field);
      if (quoted === undefined && raw.length > 1 && raw.endsWith('*'))
        fields.push({ op: 'prefix', path, value: raw.slice(0, -1) });
      else fields.push({ op: 'eq', path, value: raw });
    }
    return ' ';
  });
  if (fields.length > MAX_FIELD_FILTERS) {
    const message = `at most ${MAX_FIELD_FILTERS} field filters`;
    throw new BadRequestError(`Invalid query parameter ${field}: ${message}`, [{ field, message }]);
  }
  const plain = rest.replace(/\s+/g, ' ').trim();
  return { fields, text: plain === '' ? undefined : plain };
}

/** The field clauses of `fields` (the API's `fields` parameter): nothing else is allowed there. */
export function parseFieldParam(raw: string | undefined): FieldFilter[] {
  const { fields, text } = parseLogSearch(raw, 'fields');
  if (text !== undefined) {
    const message = `"${text.slice(0, 50)}" is not a field filter (data.name = value, data.name = prefix*, has:data.name)`;
    throw new BadRequestError(`Invalid query parameter fields: ${message}`, [{ field: 'fields', message }]);
  }
  return fields;
}
