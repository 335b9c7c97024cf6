export interface JsonSafeOptions {
  /** Deeper objects become `"[Object]"`. Default 6. */
  maxDepth?: number;
  /** Longer strings are cut. Default 2000. */
  maxStringLength?: number;
  /** Keys beyond this per object are left out. Default 100. */
  maxKeys?: number;
}

/**
 * Turns any value into something `JSON.stringify` can send: errors become
 * `{ name, message, stack }`, cycles `"[Circular]"`, bigints strings, functions and symbols are
 * left out, dates ISO strings; depth, keys and string lengths are bounded. Never throws.
 */
export function toJsonSafe(value: unknown, options: JsonSafeOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? 6;
  const maxString = options.maxStringLength ?? 2000;
  const maxKeys = options.maxKeys ?? 100;
  const seen = new WeakSet<object>();

  function walk(v: unknown, depth: number): unknown {
    try {
      if (v === null) return null;
      switch (typeof v) {
        case 'string':
          return v.length > maxString ? `${v.slice(0, maxString - 1)}…` : v;
        case 'number':
          return Number.isFinite(v) ? v : String(v);
        case 'boolean':
          return v;
        case 'bigint':
          return v.toString();
        case 'undefined':
        case 'function':
        case 'symbol':
          return undefined;
      }
      const obj = v as object;
      if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
      if (seen.has(obj)) return '[Circular]';
      if (depth >= maxDepth) return Array.isArray(obj) ? '[Array]' : '[Object]';
      seen.add(obj);
      try {
        if (obj instanceof Error) {
          const out: Record<string, unknown> = { name: obj.name, message: walk(obj.message, depth + 1) };
          if (obj.stack) out['stack'] = walk(obj.stack, depth + 1);
          for (const key of Object.keys(obj).slice(0, maxKeys))
            out[key] = walk((obj as unknown as Record<string, unknown>)[key], depth + 1);
          return out;
        }
        if (Array.isArray(obj)) return obj.slice(0, maxKeys).map((item) => walk(item, depth + 1) ?? null);
        const json = (obj as { toJSON?: () => unknown }).toJSON;
        if (typeof json === 'function') return walk(json.call(obj), depth + 1);
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(obj).slice(0, maxKeys)) {
          const item = walk((obj as Record<string, unknown>)[key], depth + 1);
          if (item !== undefined) out[key] = item;
        }
        return out;
      } finally {
        seen.delete(obj);
      }
    } catch {
      return '[Unserialisable]';
    }
  }
  return walk(value, 0);
}
