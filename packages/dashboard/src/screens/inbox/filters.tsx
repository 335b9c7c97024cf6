/**
 * The inbox's search, filters and sort, each a URL parameter. The company filter lists the
 * project's companies (GET /projects/{id}/companies) and sends `company` (a company's id) with the
 * list query: ideas the company's people voted for.
 */
import { api } from '../../api/client.ts';
import { STATUSES, type Tag, TYPES } from '../../api/features.ts';
import { SelectField } from '../../widgets/fields.tsx';
import { SearchForm } from '../../widgets/search-form.tsx';
import { type InboxView, SORTS } from './view.ts';
import { ViewFilters } from '../../widgets/view-filters.tsx';
import { useApiQuery } from '../../api/use-api-query.ts';

export const companiesKey = (projectId: string) => ['companies', projectId] as const;

const VISIBILITIES = [
  { value: 'public', label: 'Public only' },
  { value: 'internal', label: 'Internal only' },
];
const TRIAGE = [
  { value: 'needed', label: 'Needs triage' },
  { value: 'done', label: 'Triaged' },
];

export function Filters({
  projectId,
  view,
  tags,
  update,
  compact,
}: {
  projectId: string;
  /** Beside an open idea: the selects fold under "Filters and sort", the search stays. */
  compact: boolean;
  view: InboxView;
  tags: Tag[];
  update: (changes: Record<string, string>) => void;
}) {
  const companies = useApiQuery(companiesKey(projectId), () =>
    api.GET('/projects/{projectId}/companies', { params: { path: { projectId } } }),
  );
  const companyOptions = (companies.data?.companies ?? []).map((company) => ({
    value: company.id,
    label: company.name ?? company.externalId,
  }));
  // A company in the URL that the list does not hold: still shown as chosen.
  if (view.company && !companyOptions.some((option) => option.value === view.company)) {
    companyOptions.push({ value: view.company, label: companies.isPending ? 'Loading…' : 'Unknown company' });
  }
  const active = [view.status, view.type, view.visibility, view.triage, view.tag, view.company, view.sort].filter(
    Boolean,
  ).length;
  const selects = (
    <div className="inbox-selects">
      <ViewFilters
        read={(name) => view[name]}
        update={update}
        filters={[
          { name: 'status', label: 'Status', empty: 'Any status', options: STATUSES },
          { name: 'type', label: 'Type', empty: 'Any type', options: TYPES },
          { name: 'visibility', label: 'Visibility', empty: 'Public and internal', options: VISIBILITIES },
          { name: 'triage', label: 'Triage', empty: 'Triaged or not', options: TRIAGE },
          {
            name: 'tag',
            label: 'Tag',
            empty: 'Any tag',
            options: tags.map((tag) => ({ value: tag.id, label: tag.name })),
          },
          { name: 'company', label: 'Company', empty: 'Any company', options: companyOptions },
        ]}
      />
      <SelectField
        label="Sort by"
        value={view.sort || 'newest'}
        options={SORTS}
        onChange={(sort) => update({ sort: sort === 'newest' ? '' : sort })}
      />
    </div>
  );
  return (
    <search aria-label="Search and filter ideas" className="inbox-filters">
      <SearchForm
        value={view.q}
        onSearch={(q) => update({ q })}
        placeholder="Words of the title or description"
        className="inbox-search row"
      />
      {compact ? (
        <details className="inbox-more">
          <summary>Filters and sort{active > 0 ? ` (${active} set)` : ''}</summary>
          {selects}
        </details>
      ) : (
        selects
      )}
    </search>
  );
}
