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
