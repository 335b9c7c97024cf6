/**
 * @signpost/i18n: translations from Signpost with ETag caching, `{name}` interpolation, plurals
 * through `Intl.PluralRules`, fallbacks and missing-key reporting. i18next backend at
 * `@signpost/i18n/i18next`, React bindings at `@signpost/i18n/react`.
 */
export { createI18n } from './client.js';
export type { I18n, I18nOptions, TranslateOptions } from './client.js';
export { interpolate, pluralCategory, pluralKeys } from './format.js';
export type { TranslationValues } from './format.js';
export { MAX_KEYS_PER_REPORT } from './telemetry.js';
export { isValidLocale, isValidNamespace } from './validate.js';
export type { TranslationSet } from './loader.js';
export { ApiError, SdkError } from '@signpost/sdk-core';
