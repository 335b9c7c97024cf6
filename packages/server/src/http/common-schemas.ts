import { Type } from 'typebox';

export const Timestamp = Type.String({ format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, for people; the text may change' }),
    code: Type.Optional(
      Type.String({
        description:
          'What went wrong, for programs: a stable name (BadRequest, Unauthorized, Forbidden, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, TooManyRequests, SeatLimit, MailFailed, …). Absent only where the product spec fixes the body to {error}.',
      }),
    ),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false, $id: 'Error' },
);

/**
 * `limit` and `offset` query parameters. `limit` has no schema maximum: a larger value is
 * clamped by the handler and the response shows the value used.
 */
/** Deeper than any real list; keeps absurd values (1e309) away from the database. */
export const MAX_OFFSET = 2_147_483_647;

export function Paging(defaultLimit: number) {
  return {
    limit: Type.Optional(Type.Integer({ minimum: 1, default: defaultLimit })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0 })),
  };
}

export function clampLimit(limit: number | undefined, fallback: number, max: number): number {
  return Math.min(limit ?? fallback, max);
}

/** The standard error responses every protected route can give. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, Type.Ref('Error')]));
}

/** A string from a fixed list: `{type: string, enum: [...]}` in JSON Schema, a literal union in TypeScript. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An e-mail address an account or an invite is made for. */
export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
