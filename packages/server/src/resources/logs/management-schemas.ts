/** Log groups as the management API shows them; the route shapes are the reports' triage ones. */
import { Type } from 'typebox';
import { Paging, StringEnum } from '../../http/common-schemas.ts';
import { KeyEnvironmentSchema, NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { groupFields, Json, REPORT_STATUSES } from '../reports/index.ts';
import { LOG_LEVELS } from './schemas.ts';
import { COUNT_CAP } from './store.ts';
import { LogAttribution } from './line-schemas.ts';

const log = {
  ...groupFields,
  fingerprint: Type.String(),
  level: Type.String(),
  category: NullableString(),
  source: NullableString(),
  message: Type.String(),
  userId: NullableString(),
  appVersion: NullableString(),
};
export const LogSummary = Type.Object(log, { additionalProperties: false });
export const LogGroup = Type.Object(
  { ...log, data: Json, attribution: LogAttribution },
  { additionalProperties: false },
);

const Status = StringEnum(REPORT_STATUSES, { description: 'open, resolved or ignored' });
const Levels = Type.String({
  maxLength: 200,
  description: `Comma-separated list of: ${LOG_LEVELS.join(', ')}`,
});

export const LogGroupParams = Type.Object({
  ...ProjectParams.properties,
  reportId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const LogStatusBody = Type.Object({ status: Status });

/** The filters the list and the histogram share. */
const logFilters = {
  environment: Type.Optional(KeyEnvironmentSchema),
  status: Type.Optional(Status),
  level: Type.Optional(Levels),
  category: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  source: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Groups any of whose lines came from this source' }),
  ),
  appVersion: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Groups any of whose lines came from this app version' }),
  ),
  userId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Groups any of whose lines came from this user' }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Text searched in messages, categories, sources and fingerprints',
    }),
  ),
};

export const LogListQuery = Type.Object({
  ...logFilters,
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Last seen at or after this time' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Last seen before this time' })),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 300,
      description:
        'The `nextCursor` of the previous page: the page after it, as fast as the first (use instead of offset)',
    }),
  ),
  ...Paging(50),
});

export const LogPage = Type.Object(
  {
    logs: Type.Array(LogSummary),
    total: Type.Integer({
      description: `Groups matching the filters, counted up to ${COUNT_CAP + 1}: more than ${COUNT_CAP} shows as ${COUNT_CAP + 1} (see totalCapped)`,
    }),
    totalCapped: Type.Boolean({ description: `More than ${COUNT_CAP} groups match: total is not exact` }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    hasMore: Type.Boolean({ description: 'Another page follows this one' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last page',
    }),
    counts: Type.Object(
      { open: Type.Integer(), resolved: Type.Integer(), ignored: Type.Integer() },
      {
        additionalProperties: false,
        description: `Groups per status in the environment filter (other filters ignored), each counted up to ${COUNT_CAP + 1}`,
      },
    ),
  },
  { additionalProperties: false },
);

export const HISTOGRAM_BUCKETS = ['minute', 'hour', 'day'] as const;

export const LogHistogramQuery = Type.Object({
  ...logFilters,
  since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Start of the range (line time); if left out, 24 hours before `until` (or now)',
    }),
  ),
  until: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'End of the range (line time); if left out, the end of the bucket that holds now',
    }),
  ),
});

const LevelCounts = Type.Object(Object.fromEntries(LOG_LEVELS.map((level) => [level, Type.Integer()])), {
  additionalProperties: false,
});

export const LogHistogram = Type.Object(
  {
    bucket: StringEnum(HISTOGRAM_BUCKETS, {
      description: 'The bucket size, chosen from the range: minutes up to 3 hours, hours up to 10 days, else days',
    }),
    since: Type.String({ format: 'date-time', description: 'Start of the first bucket' }),
    until: Type.String({ format: 'date-time', description: 'End of the range' }),
    buckets: Type.Array(
      Type.Object(
        { start: Type.String({ format: 'date-time' }), total: Type.Integer(), levels: LevelCounts },
        { additionalProperties: false },
      ),
      {
        description:
          'Every bucket of the range in order, empty ones included: the log lines in it per level (every accepted entry counts, at its own time; with a source, app version, user or text filter, the lines kept)',
      },
    ),
    totals: LevelCounts,
  },
  { additionalProperties: false },
);
