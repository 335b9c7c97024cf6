/**
 * A pino transport that ships logs to Signpost (Node.js; pino runs it in a worker thread).
 *
 * ```js
 * import pino from 'pino';
 * const log = pino(pino.transport({ target: '@signpost/logger/pino', options: { apiKey: process.env.SIGNPOST_API_KEY } }));
 * ```
 *
 * Options cross a thread boundary (structured clone), so they hold data only, no functions.
 */
import build from 'pino-abstract-transport';
import { createLogger, type LogLevel } from './index.js';

export interface PinoTransportOptions {
  /** A project key with the `logs:write` scope. */
  apiKey: string;
  /** Default `http://localhost:3000/api/public/v1`. */
  baseUrl?: string;
  /** The least severe level sent. Default `trace` (pino already filters by its own level). */
  level?: LogLevel;
  /** Category of entries without a pino `name`. */
  category?: string;
  /** Default `pino`. */
  source?: string;
  appVersion?: string;
  /** Property of a log object holding a custom fingerprint. Default `fingerprint`. */
  fingerprintKey?: string;
  /** Property of a log object holding the category. Default `category`, then pino's `name`. */
  categoryKey?: string;
  maxBatchSize?: number;
  flushIntervalMs?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/** pino's numeric levels to Signpost's; `fatal` (60) is sent as `error` with `data.severity: "fatal"`. */
export function pinoLevel(level: unknown): LogLevel {
  const n = typeof level === 'number' ? level : Number(level);
  if (n >= 50) return 'error';
  if (n >= 40) return 'warn';
  if (n >= 30) return 'info';
  if (n >= 20) return 'debug';
  return 'trace';
}

/** The transport factory pino calls (the module's default export). */
export default async function signpostTransport(options: PinoTransportOptions): Promise<NodeJS.WritableStream> {
  const fingerprintKey = options.fingerprintKey ?? 'fingerprint';
  const categoryKey = options.categoryKey ?? 'category';
  const logger = createLogger({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    level: options.level ?? 'trace',
    source: options.source ?? 'pino',
    ...(options.category ? { category: options.category } : {}),
    ...(options.appVersion ? { appVersion: options.appVersion } : {}),
    ...(options.maxBatchSize ? { maxBatchSize: options.maxBatchSize } : {}),
    ...(options.flushIntervalMs !== undefined ? { flushIntervalMs: options.flushIntervalMs } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    flushOnExit: false,
    offline: false,
    onError: (error) => console.error('[signpost pino transport]', error),
  });

  return build(
    async (source: AsyncIterable<Record<string, unknown>>) => {
      for await (const obj of source) {
        const {
          level,
          time,
          msg,
          message,
          [fingerprintKey]: fingerprint,
          [categoryKey]: category,
          name,
          ...rest
        } = obj;
        const text =
          typeof msg === 'string'
            ? msg
            : typeof message === 'string'
              ? message
              : rest['err']
                ? String((rest['err'] as { message?: unknown }).message ?? 'error')
                : '';
        const data: Record<string, unknown> = { ...rest };
        // The spec's levels stop at error: fatal is sent as error and told apart by this field.
        if (Number(level) >= 60) data['severity'] = 'fatal';
        const cat = typeof category === 'string' ? category : typeof name === 'string' ? name : undefined;
        logger.log(pinoLevel(level), text || '(no message)', data, {
          ...(cat ? { category: cat } : {}),
          ...(typeof time === 'number' || typeof time === 'string' ? { timestamp: time } : {}),
          ...(typeof fingerprint === 'string' && fingerprint ? { fingerprint } : {}),
        });
      }
    },
    {
      async close() {
        await logger.close();
      },
    },
  ) as unknown as NodeJS.WritableStream;
}
