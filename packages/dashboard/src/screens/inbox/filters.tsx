/**
 * The inbox's search, filters and sort, each a URL parameter. The company filter lists the
 * project's companies (GET /projects/{id}/companies) and sends `company` (a company's id) with the
 * list query: ideas the company's people voted for.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { STATUSES, type Tag, TYPES } from '../../api/features.ts';
import { SelectField } from '../../widgets/fields.tsx';
import { SearchForm } from '../../widgets/search-form.tsx';
import { type InboxView, SORTS } from './view.ts';

export const companiesKey = (projectId: string) => ['companies', projectId] as const;

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
  const companies = useQuery({
    queryKey: companiesKey(projectId),
    queryFn: () => unwrap(api.GET('/projects/{projectId}/companies', { params: { path: { projectId } } })),
  });
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
      <SelectField
        label="Status"
        value={view.status}
        options={[{ value: '', label: 'Any status' }, ...STATUSES]}
        onChange={(status) => update({ status })}
      />
      <SelectField
        label="Type"
        value={view.type}
        options={[{ value: '', label: 'Any type' }, ...TYPES]}
        onChange={(type) => update({ type })}
      />
      <SelectField
        label="Visibility"
        value={view.visibility}
        options={[
          { value: '', label: 'Public and internal' },
          { value: 'public', label: 'Public only' },
          { value: 'internal', label: 'Internal only' },
        ]}
        onChange={(visibility) => update({ visibility })}
      />
      <SelectField
        label="Triage"
        value={view.triage}
        options={[
          { value: '', label: 'Triaged or not' },
          { value: 'needed', label: 'Needs triage' },
          { value: 'done', label: 'Triaged' },
        ]}
        onChange={(triage) => update({ triage })}
      />
      <SelectField
        label="Tag"
        value={view.tag}
        options={[{ value: '', label: 'Any tag' }, ...tags.map((tag) => ({ value: tag.id, label: tag.name }))]}
        onChange={(tag) => update({ tag })}
      />
      <SelectField
        label="Company"
        value={view.company}
        options={[{ value: '', label: 'Any company' }, ...companyOptions]}
        onChange={(company) => update({ company })}
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
