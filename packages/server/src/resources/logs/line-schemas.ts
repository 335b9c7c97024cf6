/** Log lines as the management API shows them (issue 32); the filters the list, histogram and tail share. */
import { Type } from 'typebox';
import { StringEnum } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { Json, REPORT_STATUSES } from '../reports/index.ts';
import { LOG_LEVELS } from './schemas.ts';

export const LogLine = Type.Object(
  {
    id: Type.String({ description: 'The line id (an increasing number, as a string)' }),
    groupId: Type.String(),
    environment: Type.String(),
    timestamp: Type.String({ format: 'date-time', description: "The entry's own time" }),
    level: Type.String(),
    severity: Type.Union([Type.Literal('fatal'), Type.Null()], {
      description: '`fatal` when the entry was fatal (level stays `error`, the spec has five levels)',
    }),
    message: Type.String({ description: "The group's message" }),
    category: NullableString(),
    fingerprint: Type.String(),
    source: NullableString(),
    appVersion: NullableString(),
    userId: NullableString(),
    traceId: NullableString(),
    spanId: NullableString(),
    data: Json,
  },
  { additionalProperties: false },
);

const text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));

/** The filters of the line list, the live tail and the histogram. */
export const lineFilters = {
  environment: Type.Optional(KeyEnvironmentSchema),
  status: Type.Optional(StringEnum(REPORT_STATUSES, { description: "The group's status" })),
  level: Type.Optional(
    Type.String({ maxLength: 200, description: `Comma-separated list of: ${LOG_LEVELS.join(', ')}` }),
  ),
  category: text("The group's category"),
  source: text("The line's source"),
  appVersion: text("The line's app version"),
  userId: text("The line's user id"),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'Text searched in the message, category and data; may hold field filters: `data.orderId = 42`, `data.path = /api/*` (prefix), `has:data.orderId`',
    }),
  ),
  fields: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Field filters only (same syntax as in q), up to 5, all must match',
    }),
  ),
};

const range = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Lines at or after this time (line time)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Lines before this time (line time)' })),
};

export const LineListQuery = Type.Object({
  ...lineFilters,
  ...range,
  groupId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Lines of this group only' })),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 300, description: 'The `nextCursor` of the previous page' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
});

export const GroupLineQuery = Type.Object({
  ...range,
  cursor: LineListQuery.properties.cursor,
  limit: LineListQuery.properties.limit,
});

export const LinePage = Type.Object(
  {
    lines: Type.Array(LogLine, { description: 'Newest first' }),
    hasMore: Type.Boolean({
      description:
        'More lines may follow. A text or field search reads at most 10,000 lines a page: its page may hold fewer lines than `limit` and still have more',
    }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page (a search goes on where this page stopped reading)',
    }),
  },
  { additionalProperties: false },
);

export const LineParams = Type.Object({
  ...ProjectParams.properties,
  lineId: Type.String({ minLength: 1, maxLength: 30 }),
});

export const AroundQuery = Type.Object({
  seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600, default: 60, description: 'Either side' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
});

export const AroundPage = Type.Object(
  {
    line: LogLine,
    lines: Type.Array(LogLine, { description: 'Every group, oldest first, within `seconds` either side' }),
  },
  { additionalProperties: false },
);

export const TailQuery = Type.Object({ ...lineFilters });

export const GroupHistogramQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Start (line time); default 24 hours ago' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'End (line time); default now' })),
});

const Attribution = Type.Array(
  Type.Object({ value: Type.String(), count: Type.Integer() }, { additionalProperties: false }),
);
export const LogAttribution = Type.Object(
  { sources: Attribution, appVersions: Attribution, users: Attribution },
  {
    additionalProperties: false,
    description: 'Every source, app version and user that sent the group, with counts, most frequent first (top 50)',
  },
);
