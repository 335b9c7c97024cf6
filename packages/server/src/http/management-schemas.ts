/** Schema pieces every management resource shares. */
import { Type } from 'typebox';
import { StringEnum } from './common-schemas.ts';
import { BadRequestError } from '../kernel/errors.ts';

export const ProjectParams = Type.Object({ projectId: Type.String({ minLength: 1, maxLength: 100 }) });

export const KEY_ENVIRONMENTS = ['live', 'test'] as const;
export const KeyEnvironmentSchema = StringEnum(KEY_ENVIRONMENTS, {
  description: 'Data written with live (`svc_live_`) or test (`svc_test_`) keys',
});

/** A list page: `total` counts every match, `limit` is the value used (clamped to the maximum). */
export const pageFields = { total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() };

export const NullableString = (options: Record<string, unknown> = {}) =>
  Type.Union([Type.String(options), Type.Null()]);

/** A body of optional fields must still change something. */
export function requireSomeField(body: object, fields: readonly string[]): void {
  if (!fields.some((field) => (body as Record<string, unknown>)[field] !== undefined)) {
    throw new BadRequestError(`Send at least one of: ${fields.join(', ')}`, [
      { field: '(body)', message: `must contain at least one of ${fields.join(', ')}` },
    ]);
  }
}

/** A sort order of a list: one of the given names. */
export const Sort = <const T extends readonly string[]>(values: T, fallback: T[number]) =>
  Type.Optional(StringEnum(values, { default: fallback }));
