/**
 * The texts of `<signpost-updates>` in English and German. The element picks by its `lang`
 * attribute, else the page's `<html lang>`; pass `texts` for any other language.
 */
export interface UpdatesTexts {
  launcher: string;
  heading: string;
  /** `{n}` is the count. */
  unread: string;
  empty: string;
  close: string;
  isNew: string;
  announcement: string;
  readMore: string;
  dismiss: string;
  all: string;
  failed: string;
}

export const UPDATES_TEXTS_EN: UpdatesTexts = {
  launcher: "What's new",
  heading: "What's new",
  unread: '{n} unread',
  empty: 'Nothing new yet.',
  close: 'Close',
  isNew: 'New',
  announcement: 'Announcement',
  readMore: 'Read more',
  dismiss: 'Got it',
  all: 'All updates',
  failed: 'The updates could not be loaded.',
};

export const UPDATES_TEXTS_DE: UpdatesTexts = {
  launcher: 'Neuigkeiten',
  heading: 'Neuigkeiten',
  unread: '{n} ungelesen',
  empty: 'Noch keine Neuigkeiten.',
  close: 'Schließen',
  isNew: 'Neu',
  announcement: 'Ankündigung',
  readMore: 'Weiterlesen',
  dismiss: 'Verstanden',
  all: 'Alle Neuigkeiten',
  failed: 'Die Neuigkeiten konnten nicht geladen werden.',
};

/** `de` for a German element or page, else `en`. */
export function embedLanguage(element: HTMLElement): 'en' | 'de' {
  const lang = (element.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang ?? '').toLowerCase();
  return lang.startsWith('de') ? 'de' : 'en';
}
