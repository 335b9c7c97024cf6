// i18next with Signpost as its backend. Signpost texts use {name} placeholders, so set the
// interpolation prefix and suffix; keys with dots (`app.title`) are found as they are.
import i18next from 'i18next';
import { SignpostBackend } from '@signpost/i18n/i18next';

await i18next.use(SignpostBackend).init({
  lng: 'de',
  fallbackLng: 'en',
  ns: ['translation', 'feedback'], // `translation` loads every key; other names load that Signpost namespace
  interpolation: { prefix: '{', suffix: '}' },
  saveMissing: true, // missing keys go to Signpost (by default only in development)
  backend: {
    baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
    apiKey: process.env.SIGNPOST_API_KEY ?? 'svc_live_demo_signpostpublicdemokey0001',
  },
});

console.log(i18next.t('app.welcome', { name: 'Ada' })); // Willkommen, Ada!
console.log(i18next.t('feedback.submit', { ns: 'feedback' })); // Feedback senden
