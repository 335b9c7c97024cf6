// Node.js 18+: translate with interpolation and plurals; missing keys are reported to Signpost.
// Runs against a local server (`npm start` in the Signpost repo) with the demo key, or set
// SIGNPOST_URL and SIGNPOST_API_KEY.
import { createI18n } from '@signpost/i18n';

const i18n = createI18n({
  baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
  apiKey: process.env.SIGNPOST_API_KEY ?? 'svc_live_demo_signpostpublicdemokey0001',
  locale: 'de',
  fallbackLocale: 'en',
});
await i18n.ready;

console.log(i18n.t('app.welcome', { name: 'Ada' })); // Willkommen, Ada!
console.log(i18n.t('cart.items', { count: 3 }, { defaultValue: '{count} items' })); // a plural, missing here
await i18n.setLocale('en');
console.log(i18n.t('nav.changelog')); // Changelog

await i18n.close(); // sends the missing-key report (cart.items) before exiting
