/** How the management API shows a person and their company. */
import { Type } from 'typebox';
import { NullableString } from '../../http/management-schemas.ts';
import { Timestamp } from '../../http/common-schemas.ts';
import type { PersonWithCompany } from './store.ts';

export const CompanySchema = Type.Object(
  {
    externalId: Type.String({ description: "The host app's id of the company" }),
    name: NullableString(),
    plan: NullableString(),
    monthlyRevenue: Type.Union([Type.Number(), Type.Null()]),
  },
  { additionalProperties: false },
);

export const PersonSummary = Type.Object(
  {
    id: Type.String(),
    name: NullableString({ description: 'null until the app or the board identifies them' }),
    email: NullableString(),
    avatarUrl: NullableString(),
    company: Type.Union([CompanySchema, Type.Null()]),
  },
  { additionalProperties: false, description: 'The person behind a vote, comment or idea' },
);

export const PersonSchema = Type.Object(
  {
    ...PersonSummary.properties,
    externalId: NullableString({ description: "The host app's user id (SSO sub)" }),
    firstSeenAt: Timestamp,
    lastSeenAt: Timestamp,
  },
  { additionalProperties: false },
);

export function presentPersonSummary(row: PersonWithCompany) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    avatarUrl: row.avatar_url,
    company:
      row.company_id === null || row.company_external_id === null
        ? null
        : {
            externalId: row.company_external_id,
            name: row.company_name,
            plan: row.company_plan,
            monthlyRevenue: row.company_monthly_revenue === null ? null : Number(row.company_monthly_revenue),
          },
  };
}

export function presentPerson(row: PersonWithCompany) {
  return {
    ...presentPersonSummary(row),
    externalId: row.external_id,
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
  };
}
