/**
 * Translations: keys, their text per locale, translation files and the keys apps report missing.
 * What surfaces, seed and tests use of this resource; nothing else imports its files directly.
 */
export { translationRoutes } from './public-routes.ts';
export { i18nTelemetryRoutes } from './telemetry-public-routes.ts';
export { translationManagementRoutes } from './management-routes.ts';
export { registerTranslationTools } from './mcp-tools.ts';
export { insertKey, type NewKey } from './store.ts';
export { upsertKeys, type KeyInput, type UpsertOutcome } from './store-upsert.ts';
