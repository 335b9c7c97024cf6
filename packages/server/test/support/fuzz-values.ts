/**
 * Values for the fuzz test: a plausible valid value for a JSON Schema (so a variant breaks one
 * thing at a time), and the malformed values it swaps in. Numbers JSON cannot spell as a value
 * (1e400, 2^63 exactly) travel as `Raw` and are spliced into the body text.
 */

export type Schema = Record<string, any>;

/** Text placed into a JSON body verbatim. */
export class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export function deepObject(levels: number): Raw {
  return new Raw(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`);
}

export function deepArray(levels: number): Raw {
  return new Raw('['.repeat(levels) + ']'.repeat(levels));
}

/** Numbers that are huge, odd or not numbers at all. */
export const ODD_NUMBERS: readonly (Raw | string | number | null)[] = [
  new Raw('1e400'),
  new Raw('-1e400'),
  -1,
  new Raw('9223372036854775808'),
  new Raw('-9223372036854775809'),
  0.5,
  2147483648,
  Number.MAX_SAFE_INTEGER,
  1e308,
  new Raw('-0'),
  'Infinity',
  'NaN',
  null,
];

/** The same, as query or path text. */
export const ODD_NUMBER_TEXT = [
  '1e400',
  '-1',
  'Infinity',
  '-Infinity',
  'NaN',
  '9223372036854775808',
  '0.5',
  '2147483648',
  '9007199254740991',
  '1e308',
  '',
  '0',
  ' 1',
  '0x10',
  '1'.repeat(400),
];

/** Ids no item can have. */
export const ODD_IDS = [
  'a\u0000b',
  'x'.repeat(4000),
  '../../etc/passwd',
  "' OR '1'='1",
  '\u202e\u{1F600}',
  ' ',
  '%',
  '-1',
  'null',
  '__proto__',
];

export const NUL_TEXT = 'fuzz\u0000text';

/** Text that is odd for a locale, a slug, a search, a key or a sort: used by the random rounds. */
export const ODD_TEXT = [
  '-',
  'en-',
  'i-klingon',
  'en_US',
  'de-DE-u-co-phonebk',
  'x-private',
  'a'.repeat(300),
  '%',
  '_',
  '\\',
  '..',
  '*',
  '  ',
  '\t',
  '\u2028',
  '{}',
  '[]',
  'null',
  'true',
  '0',
  '-1',
  '1e400',
  'ü',
  '\u{1F600}',
  '<script>',
  "'",
  '"',
  `${'a'.repeat(64)}@${'b'.repeat(250)}.com`,
];

/** Dates a format check may pass but a date library or column may not hold. */
export const ODD_DATES = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  '275761-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-06-30T23:59:60Z',
  '1970-01-01T00:00:00+99:99',
  '-000001-01-01T00:00:00Z',
];

/** JSON text with the `Raw` parts spliced in. */
export function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, part) => {
    if (part instanceof Raw) {
      raws.push(part.text);
      return `__raw_${raws.length - 1}__`;
    }
    return part;
  });
  return text === undefined ? '' : text.replace(/"__raw_(\d+)__"/g, (_match, index) => raws[Number(index)]!);
}

export function resolve(schema: Schema | undefined, doc: Schema): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.['$ref'] && hops < 10; hops++) {
    const pointer = String(current['$ref']).replace(/^#\//, '').split('/');
    current = pointer.reduce<any>((node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  if (current?.['anyOf'] || current?.['oneOf']) {
    const members: Schema[] = current['anyOf'] ?? current['oneOf'];
    return resolve(members.find((member) => resolve(member, doc)?.['type'] !== 'null') ?? members[0], doc);
  }
  return current;
}

export function typeOf(schema: Schema | undefined): string | undefined {
  const type = schema?.['type'];
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  if (type) return type;
  if (schema?.['properties']) return 'object';
  return undefined;
}

let serial = 0;

/** Text a field of this name and schema would accept. */
function sampleText(name: string, schema: Schema): string {
  if (schema['enum']) return schema['enum'][0];
  if (schema['const'] !== undefined) return schema['const'];
  const format = schema['format'];
  if (format === 'date-time') return new Date().toISOString();
  if (format === 'email' || /email/i.test(name)) return `fuzz-${Date.now()}-${serial++}@example.com`;
  if (format === 'uri' || /url$/i.test(name)) return 'https://example.com/fuzz';
  const min = Number(schema['minLength'] ?? 0);
  const max = Number(schema['maxLength'] ?? 1000);
  const candidates = [
    /version/i.test(name) ? `1.${serial++}.0` : undefined,
    /locale/i.test(name) ? 'en' : undefined,
    /password/i.test(name) ? 'correct horse battery staple' : undefined,
    /commit/i.test(name) ? 'abcdef1234567' : undefined,
    `fuzz.${name || 'value'}.${serial++}`.replace(/[^A-Za-z0-9._-]/g, '-'),
    'en',
    '#336699',
    'fuzz sample text that is long enough for most minimum lengths',
  ].filter((text): text is string => text !== undefined);
  const pattern = schema['pattern'] ? new RegExp(schema['pattern']) : undefined;
  for (const candidate of candidates) {
    let text = candidate;
    while (text.length < min) text += ` ${candidate}`;
    text = text.slice(0, max);
    if (!pattern || pattern.test(text)) return text;
  }
  return 'x'.repeat(Math.max(1, min));
}

/** A value the schema accepts, as far as a generator without a solver can tell. */
export function sample(schema: Schema | undefined, doc: Schema, name = '', depth = 0): unknown {
  const resolved = resolve(schema, doc);
  if (!resolved || depth > 6) return 'fuzz';
  if (resolved['default'] !== undefined) return resolved['default'];
  if (resolved['examples']?.length) return resolved['examples'][0];
  switch (typeOf(resolved)) {
    case 'string':
      return sampleText(name, resolved);
    case 'integer':
    case 'number':
      return Math.min(Number(resolved['minimum'] ?? 1), Number(resolved['maximum'] ?? Number.MAX_SAFE_INTEGER));
    case 'boolean':
      return false;
    case 'array': {
      const count = Number(resolved['minItems'] ?? 0);
      return Array.from({ length: Math.max(count, 1) }, (_, i) =>
        sample(resolved['items'], doc, `${name}${i}`, depth + 1),
      );
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of resolved['required'] ?? [])
        out[key] = sample(resolved['properties']?.[key], doc, key, depth + 1);
      return out;
    }
    default:
      return resolved['enum']?.[0] ?? 'fuzz';
  }
}

/** Every property path of a body schema (objects and array items), with its schema; a few levels deep. */
export function fieldsOf(
  schema: Schema | undefined,
  doc: Schema,
  prefix: (string | number)[] = [],
  depth = 0,
): { path: (string | number)[]; schema: Schema }[] {
  const resolved = resolve(schema, doc);
  if (!resolved || depth > 3) return [];
  const out: { path: (string | number)[]; schema: Schema }[] = [];
  if (typeOf(resolved) === 'object') {
    for (const [key, child] of Object.entries<Schema>(resolved['properties'] ?? {})) {
      const childResolved = resolve(child, doc) ?? {};
      out.push({ path: [...prefix, key], schema: childResolved });
      out.push(...fieldsOf(childResolved, doc, [...prefix, key], depth + 1));
    }
  } else if (typeOf(resolved) === 'array' && resolved['items']) {
    out.push(...fieldsOf(resolved['items'], doc, [...prefix, 0], depth + 1));
  }
  return out;
}

/** The malformed values for a field of this schema: NUL, odd numbers, deep nesting, wrong types. */
export function badValuesFor(schema: Schema, extended = false): unknown[] {
  const type = typeOf(schema);
  if (extended && type === 'string') return [...badValuesFor(schema), 'x'.repeat(100_001), ...ODD_TEXT, ...ODD_DATES];
  const common: unknown[] = [deepObject(40), deepObject(5000), deepArray(5000)];
  switch (type) {
    case 'string':
      return [
        NUL_TEXT,
        '\u0000',
        'x'.repeat(5001),
        '\ud800 lone surrogate',
        12345,
        { a: NUL_TEXT },
        ...(schema['format'] === 'date-time' || /date|at$/i.test(String(schema['description'] ?? '')) ? ODD_DATES : []),
        ...common,
      ];
    case 'integer':
    case 'number':
      return [...ODD_NUMBERS, '5', true, ...common];
    case 'boolean':
      return ['true', 1, NUL_TEXT, ...common];
    case 'array':
      return [[NUL_TEXT], [new Raw('1e400')], 'not an array', { 'a\u0000': 1 }, ...common];
    default:
      // Objects and free-form values.
      return [{ [NUL_TEXT]: 1 }, { a: NUL_TEXT }, { a: new Raw('1e400') }, [], 'not an object', ...common];
  }
}

/** A copy of `base` with the value at `path` replaced (creating parents as needed). */
export function withValue(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const container: any = Array.isArray(base)
    ? [...base]
    : base && typeof base === 'object'
      ? { ...base }
      : typeof head === 'number'
        ? []
        : {};
  container[head!] = withValue(container[head!], rest, value);
  return container;
}

/** A small seeded PRNG (mulberry32), so a long run can be replayed with its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
