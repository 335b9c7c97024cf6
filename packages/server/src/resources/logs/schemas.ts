/** What a client sends to POST /logs; the store reads `LogEntry` too, so it lives apart from the routes. */
import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/common-schemas.ts';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;

export const LogEntry = Type.Object({
  level: StringEnum(LOG_LEVELS),
  message: Type.String({ maxLength: 5000 }),
  category: Type.Optional(Type.String({ maxLength: 200 })),
  source: Type.Optional(Type.String({ maxLength: 200 })),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  userId: Type.Optional(Type.String({ maxLength: 200 })),
  appVersion: Type.Optional(Type.String({ maxLength: 100 })),
  fingerprint: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
});
export type LogEntry = Static<typeof LogEntry>;

export const LogBatch = Type.Object({ logs: Type.Array(LogEntry, { maxItems: 100 }) });
