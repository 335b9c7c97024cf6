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
};
