/**
 * The optional profile claims of a board SSO token (issue 30): `avatar` (an http(s) URL) and
 * `company` {id, name?, plan?, monthlyRevenue?}. A claim that is malformed is ignored (the
 * sign-in still works); only a signed token is read at all.
 */
import type { PersonFacts } from '../people/index.ts';

const TEXT_MAX = 200;

function text(value: unknown, max = TEXT_MAX): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= max ? trimmed : undefined;
}

export function profileOfClaims(claims: Record<string, unknown>): Pick<PersonFacts, 'avatarUrl' | 'company'> {
  const profile: Pick<PersonFacts, 'avatarUrl' | 'company'> = {};
  const avatar = text(claims['avatar'], 2000);
  if (avatar && /^https?:\/\/[^\s]+$/i.test(avatar)) profile.avatarUrl = avatar;
  const company = claims['company'];
  if (company && typeof company === 'object' && !Array.isArray(company)) {
    const fields = company as Record<string, unknown>;
    const externalId = text(fields['id']);
    if (externalId) {
      const revenue = fields['monthlyRevenue'];
      profile.company = {
        externalId,
        name: text(fields['name']),
        plan: text(fields['plan']),
        monthlyRevenue:
          typeof revenue === 'number' && Number.isFinite(revenue) && revenue >= 0 && revenue < 1e12
            ? revenue
            : undefined,
      };
    }
  }
  return profile;
}
