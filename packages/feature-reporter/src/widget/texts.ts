/** Every text the widget shows; pass your own (any subset) to translate it. `{min}`/`{max}` are filled in. */
export interface FeedbackWidgetTexts {
  trigger: string;
  heading: string;
  intro: string;
  typeLegend: string;
  typeFeature: string;
  typeBug: string;
  title: string;
  titlePlaceholder: string;
  description: string;
  descriptionPlaceholder: string;
  email: string;
  optional: string;
  submit: string;
  sending: string;
  close: string;
  thanks: string;
  done: string;
  required: string;
  tooShort: string;
  tooLong: string;
  invalidEmail: string;
  fixFields: string;
  failed: string;
  rateLimited: string;
  notConfigured: string;
  /** Above the similar ideas shown while a title is typed. */
  similarHeading: string;
  similarHint: string;
  /** Announced when suggestions arrive; `{count}` is filled in. */
  similarFound: string;
  vote: string;
  voted: string;
  /** `{count}` is filled in. */
  votes: string;
  oneVote: string;
  voteThanks: string;
  /** When the project takes votes only from identified people and the page has not called identify(). */
  signInToVote: string;
  voteFailed: string;
  myIdeas: string;
  myIdeasHeading: string;
  myIdeasEmpty: string;
  back: string;
  /** `{entry}` is filled in with the changelog entry's summary. */
  shippedIn: string;
  screenshotAdd: string;
  screenshotTaking: string;
  screenshotAlt: string;
  screenshotRemove: string;
  screenshotFailed: string;
  screenshotHint: string;
}

export const DEFAULT_TEXTS: FeedbackWidgetTexts = {
  trigger: 'Feedback',
  heading: 'Send feedback',
  intro: 'Suggest an idea or tell us what went wrong. We read every message.',
  typeLegend: 'What is it about?',
  typeFeature: 'Idea',
  typeBug: 'Bug',
  title: 'Title',
  titlePlaceholder: 'A short summary',
  description: 'Details',
  descriptionPlaceholder: 'What would help you, or what happened?',
  email: 'E-mail',
  optional: '(optional, for follow-up)',
  submit: 'Send feedback',
  sending: 'Sending…',
  close: 'Close',
  thanks: 'Thank you! Your feedback was sent.',
  done: 'Done',
  required: 'This field is required.',
  tooShort: 'Please write at least {min} characters.',
  tooLong: 'Please keep it under {max} characters.',
  invalidEmail: 'Please enter a valid e-mail address.',
  fixFields: 'Please correct the marked fields.',
  failed: 'Your feedback could not be sent. Please try again.',
  rateLimited: 'Too many submissions right now. Please try again in a few minutes.',
  notConfigured: 'The feedback form is not set up (no API key).',
  similarHeading: 'Similar ideas',
  similarHint: 'Vote for one instead of filing a duplicate, or send yours anyway.',
  similarFound: '{count} similar ideas found.',
  vote: 'Vote',
  voted: 'Voted',
  votes: '{count} votes',
  oneVote: '1 vote',
  voteThanks: 'Your vote was counted. Thank you!',
  signInToVote: 'Please sign in to vote.',
  voteFailed: 'Your vote could not be counted. Please try again.',
  myIdeas: 'My ideas',
  myIdeasHeading: 'Your ideas',
  myIdeasEmpty: 'You have not sent any ideas yet.',
  back: 'Back',
  shippedIn: 'Shipped in {entry}',
  screenshotAdd: 'Add a screenshot of this page',
  screenshotTaking: 'Taking screenshot…',
  screenshotAlt: 'Screenshot of the page, sent with your report',
  screenshotRemove: 'Remove screenshot',
  screenshotFailed: 'The screenshot could not be taken.',
  screenshotHint: 'Check that it shows nothing private before you send it.',
};

/** German texts; chosen with `locale: 'de'` or a `lang="de…"` on the element or the page. */
export const GERMAN_TEXTS: FeedbackWidgetTexts = {
  trigger: 'Feedback',
  heading: 'Feedback senden',
  intro: 'Schlagen Sie eine Idee vor oder sagen Sie uns, was nicht funktioniert hat. Wir lesen jede Nachricht.',
  typeLegend: 'Worum geht es?',
  typeFeature: 'Idee',
  typeBug: 'Fehler',
  title: 'Titel',
  titlePlaceholder: 'Eine kurze Zusammenfassung',
  description: 'Details',
  descriptionPlaceholder: 'Was würde Ihnen helfen, oder was ist passiert?',
  email: 'E-Mail',
  optional: '(optional, für Rückfragen)',
  submit: 'Feedback senden',
  sending: 'Wird gesendet…',
  close: 'Schließen',
  thanks: 'Vielen Dank! Ihr Feedback wurde gesendet.',
  done: 'Fertig',
  required: 'Dieses Feld ist erforderlich.',
  tooShort: 'Bitte schreiben Sie mindestens {min} Zeichen.',
  tooLong: 'Bitte bleiben Sie unter {max} Zeichen.',
  invalidEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  fixFields: 'Bitte korrigieren Sie die markierten Felder.',
  failed: 'Ihr Feedback konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  rateLimited: 'Gerade zu viele Einsendungen. Bitte versuchen Sie es in ein paar Minuten erneut.',
  notConfigured: 'Das Feedback-Formular ist nicht eingerichtet (kein API-Schlüssel).',
  similarHeading: 'Ähnliche Ideen',
  similarHint: 'Stimmen Sie für eine davon, statt sie doppelt einzureichen, oder senden Sie Ihre trotzdem.',
  similarFound: '{count} ähnliche Ideen gefunden.',
  vote: 'Abstimmen',
  voted: 'Abgestimmt',
  votes: '{count} Stimmen',
  oneVote: '1 Stimme',
  voteThanks: 'Ihre Stimme wurde gezählt. Vielen Dank!',
  signInToVote: 'Bitte melden Sie sich an, um abzustimmen.',
  voteFailed: 'Ihre Stimme konnte nicht gezählt werden. Bitte versuchen Sie es erneut.',
  myIdeas: 'Meine Ideen',
  myIdeasHeading: 'Ihre Ideen',
  myIdeasEmpty: 'Sie haben noch keine Ideen gesendet.',
  back: 'Zurück',
  shippedIn: 'Ausgeliefert in {entry}',
  screenshotAdd: 'Screenshot dieser Seite anhängen',
  screenshotTaking: 'Screenshot wird erstellt…',
  screenshotAlt: 'Screenshot der Seite, der mit Ihrem Bericht gesendet wird',
  screenshotRemove: 'Screenshot entfernen',
  screenshotFailed: 'Der Screenshot konnte nicht erstellt werden.',
  screenshotHint: 'Prüfen Sie, dass er nichts Privates zeigt, bevor Sie ihn senden.',
};
