/**
 * The panels of the translations screen around its grid: progress per locale, the missing-keys
 * inbox, adding a key, files (import, export) and the locale settings, one file each.
 */
export { AddKey } from './translations-add-key.tsx';
export { Files } from './translations-files.tsx';
export { LocaleSettings } from './translations-locales.tsx';
export { MissingInbox } from './translations-missing.tsx';
export { Progress } from './translations-progress.tsx';
