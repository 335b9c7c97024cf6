// React 18+: I18nProvider and useTranslation.
// Mount it with: createRoot(document.getElementById('root')!).render(<App />)
import { I18nProvider, useTranslation } from '@signpost/i18n/react';

function Header() {
  const { t, locale, setLocale, ready } = useTranslation();
  if (!ready) return <p>…</p>;
  return (
    <header>
      <h1>{t('app.welcome', { name: 'Ada' })}</h1>
      <button type="button" onClick={() => setLocale(locale === 'de' ? 'en' : 'de')}>
        {locale === 'de' ? 'English' : 'Deutsch'}
      </button>
      <nav>{t('nav.roadmap')}</nav>
    </header>
  );
}

export function App() {
  return (
    <I18nProvider
      options={{
        apiKey: 'svc_live_demo_signpostpublicdemokey0001',
        baseUrl: 'http://localhost:3000/api/public/v1',
        locale: 'en',
        fallbackLocale: 'en',
      }}
    >
      <Header />
    </I18nProvider>
  );
}
