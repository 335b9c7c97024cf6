/** Log groups as the management API shows them; the route shapes are the reports' triage ones. */
import { Type } from 'typebox';
import { NullableString } from '../../http/management-schemas.ts';
import { groupFields, Json } from '../reports/index.ts';

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
export const LogGroup = Type.Object({ ...log, data: Json }, { additionalProperties: false });
