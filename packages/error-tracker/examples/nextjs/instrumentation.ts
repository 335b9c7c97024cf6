// Next.js: instrumentation.ts at the project root. `register` runs once per server start;
// `onRequestError` (Next.js 15+) receives errors from route handlers, server components and actions.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { init } = await import('@signpost/error-tracker/node');
    init({
      apiKey: process.env.SIGNPOST_API_KEY,
      baseUrl: process.env.SIGNPOST_URL,
      environment: 'production',
      release: process.env.NEXT_PUBLIC_APP_VERSION,
    });
  }
}

export async function onRequestError(
  error: unknown,
  request: { path: string; method: string },
  context: { routerKind: string; routePath: string; routeType: string },
): Promise<void> {
  const { captureException } = await import('@signpost/error-tracker/node');
  await captureException(error, {
    severity: 'high',
    metadata: { path: request.path, method: request.method, route: context.routePath, routeType: context.routeType },
  });
}
