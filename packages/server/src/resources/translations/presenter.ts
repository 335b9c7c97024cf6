import type { KeyWithValues } from './store.ts';

export function presentKey(row: KeyWithValues) {
  return {
    key: row.key,
    defaultText: row.default_text,
    namespace: row.namespace,
    category: row.category,
    translations: { ...row.values },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A key as the MCP tools answer it: no createdAt, and the locales in `localeCompare` order. */
export function presentMcpKey(row: KeyWithValues) {
  return {
    key: row.key,
    defaultText: row.default_text,
    namespace: row.namespace,
    category: row.category,
    translations: Object.fromEntries(Object.entries(row.values).sort(([a], [b]) => a.localeCompare(b))),
    updatedAt: row.updated_at,
  };
}
