/** What app.ts mounts: the Sentry-compatible ingest routes (at the server root, beside /api/public/v1). */
export { sentryIngestRoutes } from './routes.ts';
