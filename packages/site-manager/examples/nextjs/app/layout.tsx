// Next.js App Router: load the configuration on the server once per request and hand it to the
// client provider, so flags are right in the first paint (no default-while-loading flash).
import { createSiteManager } from '@signpost/site-manager';
import { Providers } from './providers';

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const site = createSiteManager({
    baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
    projectId: process.env.NEXT_PUBLIC_SIGNPOST_PROJECT ?? 'demo',
    refreshIntervalMs: 0,
  });
  await site.ready;
  const initialConfig = site.config;
  site.close();
  return (
    <html lang="en">
      <body>
        <Providers initialConfig={initialConfig}>{children}</Providers>
      </body>
    </html>
  );
}
