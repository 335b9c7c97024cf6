import type { KeyWithValues } from './store.ts';
import { compareText } from '../../kernel/compare-text.ts';

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

/** A key as the MCP tools answer it: no createdAt, and the locales in code-unit order. */
export function presentMcpKey(row: KeyWithValues) {
  return {
    key: row.key,
    defaultText: row.default_text,
    namespace: row.namespace,
    category: row.category,
    translations: Object.fromEntries(Object.entries(row.values).sort(([a], [b]) => compareText(a, b))),
    updatedAt: row.updated_at,
  };
}
