/**
 * The changelog: the project's entries, newest first, with the idea each one tells about and its
 * state (draft, scheduled with its time, published with its time), filtered by state and searched.
 * Admins and owners open an entry to edit it, or start a new one.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Input, Label, SearchField } from 'react-aria-components';
import { Link } from 'react-router';
import { type Entry, type EntryState, formatTime, STATE_LABELS } from '../api/changelog.ts';
import { api } from '../api/client.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { useTitle } from '../use-title.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './changelog.css';
import { DataTable } from '../widgets/data-table.tsx';
import { useDebounced } from '../use-debounced.ts';
import { useApiQuery } from '../api/use-api-query.ts';

type StateFilter = EntryState | 'all';

const STATE_OPTIONS: { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'All entries' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'published', label: 'Published' },
];

function StateText({ entry }: { entry: Entry }) {
  if (entry.state === 'scheduled' && entry.publishAt)
    return (
      <span className="state state-scheduled">
        Scheduled for <time dateTime={entry.publishAt}>{formatTime(entry.publishAt)}</time>
      </span>
    );
  if (entry.state === 'published' && entry.publishedAt)
    return (
      <span className="state state-published">
        Published <time dateTime={entry.publishedAt}>{formatTime(entry.publishedAt)}</time>
      </span>
    );
  return <span className="state state-draft">{STATE_LABELS[entry.state]}</span>;
}

export default function Changelog() {
  useTitle('Changelog');
  const project = useProject();
  const projectId = project.id;
  const [state, setState] = useState<StateFilter>('all');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);

  const entries = useApiQuery(
    ['changelog', projectId, state, q],
    () =>
      api.GET('/projects/{projectId}/changelog', {
        params: {
          path: { projectId },
          query: { limit: 100, ...(state === 'all' ? {} : { state }), ...(q ? { q } : {}) },
        },
      }),
    { placeholderData: keepPreviousData },
  );
  const base = `/projects/${projectId}/changelog`;
  const filtered = state !== 'all' || q !== '';

  return (
    <div className="stack">
      <div className="row heading-row">
        <h1>Changelog</h1>
        {canAdminister(project) ? (
          <Link className="button button-primary" to={`${base}/new`}>
            New entry
          </Link>
        ) : null}
      </div>
      <search className="row filters" aria-label="Filter entries">
        <SelectField label="State" value={state} options={STATE_OPTIONS} onChange={setState} />
        <SearchField className="field search-field" value={search} onChange={setSearch}>
          <Label>Search</Label>
          <Input placeholder="Summary or description" />
        </SearchField>
      </search>
      <QueryView query={entries} what="the changelog">
        {(page) =>
          page.entries.length === 0 ? (
            <Empty>
              {filtered ? (
                <p>No entries match.</p>
              ) : (
                <p>
                  No entries yet.{' '}
                  {canAdminister(project) ? (
                    <>
                      Write the first one: <Link to={`${base}/new`}>new entry</Link>.
                    </>
                  ) : null}
                </p>
              )}
            </Empty>
          ) : (
            <>
              <DataTable
                className="changelog-table"
                caption="Changelog entries"
                wrapClassName={null}
                columns={['Summary', 'Idea', 'State']}
              >
                {page.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      <Link to={`${base}/${entry.id}`}>{entry.summary}</Link>
                    </td>
                    <td>
                      {entry.featureId ? (
                        <>
                          <Link to={`/projects/${projectId}/inbox/${entry.featureId}`}>{entry.featureTitle}</Link>
                          {entry.featureInternal ? <span className="muted"> (internal)</span> : null}
                        </>
                      ) : (
                        <span className="muted">{entry.statusLabel} · no idea linked</span>
                      )}
                    </td>
                    <td>
                      <StateText entry={entry} />
                    </td>
                  </tr>
                ))}
              </DataTable>
              {page.total > page.entries.length ? (
                <p className="muted">
                  Showing the newest {page.entries.length} of {page.total}; search to find older ones.
                </p>
              ) : null}
            </>
          )
        }
      </QueryView>
    </div>
  );
}
