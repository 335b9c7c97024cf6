/** Types of the People screens (from the management API's schema). */
import type { paths } from './schema.gen.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type PeoplePage = Json<paths['/projects/{projectId}/people']['get']['responses'][200]>;
export type Person = PeoplePage['people'][number];
export type PersonPage = Json<paths['/projects/{projectId}/people/{personId}']['get']['responses'][200]>;
export type PersonSummary = Pick<Person, 'id' | 'name' | 'email' | 'avatarUrl' | 'company'>;

export const peopleKey = (projectId: string) => ['people', projectId] as const;
export const personKey = (projectId: string, personId: string) => ['person', projectId, personId] as const;

/** How a person is named: their name, else their address, else what the app calls them. */
export function personName(person: Pick<Person, 'name' | 'email'>, fallback = 'Unnamed person'): string {
  return person.name || person.email || fallback;
}

/** A revenue amount, whole units in the reader's locale (the host app's currency is unknown). */
export const money = (value: number) => value.toLocaleString(undefined, { maximumFractionDigits: 0 });

/** "Acme Corp · enterprise · 4,200/month", or '' without a company. */
export function companyLine(company: Person['company']): string {
  if (!company) return '';
  return [
    company.name || company.externalId,
    company.plan,
    company.monthlyRevenue !== null ? `${money(company.monthlyRevenue)}/month` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}
