/**
 * Translations: keys, their text per locale, translation files and the keys apps report missing.
 * What surfaces, seed and tests use of this resource; nothing else imports its files directly.
 */
export { insertKey, type NewKey } from './store.ts';
export { upsertKeys, type KeyInput, type UpsertOutcome } from './store-upsert.ts';
