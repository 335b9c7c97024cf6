// Next.js App Router: translate in a server component. One translator per locale is kept for
// the life of the server process; its ETag cache makes revalidation cheap.
import { createI18n, type I18n } from '@signpost/i18n';

const translators = new Map<string, I18n>();
function translator(locale: string): I18n {
  let i18n = translators.get(locale);
  if (!i18n) {
    i18n = createI18n({
      baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
      apiKey: process.env.SIGNPOST_API_KEY ?? 'svc_live_demo_signpostpublicdemokey0001',
      locale,
      fallbackLocale: 'en',
    });
    translators.set(locale, i18n);
  }
  return i18n;
}

export default async function Page({ searchParams }: { searchParams: Promise<{ lang?: string }> }) {
  const { lang } = await searchParams;
  const i18n = translator(lang === 'de' ? 'de' : 'en');
  await i18n.ready;
  return (
    <main lang={i18n.locale}>
      <h1>{i18n.t('app.title')}</h1>
      <p>{i18n.t('app.welcome', { name: 'Ada' })}</p>
    </main>
  );
}
