/**
 * Where translation files live on disk, for `signpost translations import/export`:
 *   <dir>/<locale>.json               all keys of one locale
 *   <dir>/<locale>/<namespace>.json   one namespace of one locale (the i18next layout)
 * Import also reads `<namespace>.<locale>.json`. The server's export names files that way.
 */
import { basename, dirname, join } from 'node:path';
import { canonical } from './locale.ts';

export function exportPath(dir: string, locale: string, namespace: string | undefined): string {
  return namespace ? join(dir, locale, `${namespace}.json`) : join(dir, `${locale}.json`);
}

/** The locale and namespace a file name implies, when it implies them. */
export function inferFromPath(file: string): { locale?: string; namespace?: string } {
  const name = basename(file).replace(/\.json$/i, '');
  const asLocale = canonical(name);
  if (asLocale) return { locale: asLocale };
  const parent = canonical(basename(dirname(file)));
  if (parent) return { locale: parent, namespace: name };
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const locale = canonical(name.slice(dot + 1));
    if (locale) return { locale, namespace: name.slice(0, dot) };
  }
  return {};
}
