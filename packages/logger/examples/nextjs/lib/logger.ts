// Next.js (App Router): one server-side logger, imported by route handlers and server components.
// Set SIGNPOST_API_KEY (and SIGNPOST_URL for your own server) in .env.local.
import { createLogger } from '@signpost/logger';

export const log = createLogger({
  apiKey: process.env.SIGNPOST_API_KEY ?? '',
  baseUrl: process.env.SIGNPOST_URL,
  source: 'nextjs',
  category: 'api',
});
