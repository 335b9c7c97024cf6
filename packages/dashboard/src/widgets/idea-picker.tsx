/**
 * The ideas a changelog entry ships: searched among the project's ideas (typo-tolerant), linked one
 * by one, in order; each can be unlinked. Publishing the entry moves them to Done (the board setting
 * "ship on publish") and tells their followers once.
 */
import { useState } from 'react';
import { type Feature, STATUS_LABELS } from '../api/changelog.ts';
import { api } from '../api/client.ts';
import { Button, ErrorNote, Field } from '../ui.tsx';
import { useDebounced } from '../use-debounced.ts';
import { useApiQuery } from '../api/use-api-query.ts';

export interface LinkedIdea {
  id: string;
  title: string;
}

export function IdeaPicker({
  projectId,
  ideas,
  onChange,
  error,
}: {
  projectId: string;
  ideas: LinkedIdea[];
  onChange: (ideas: LinkedIdea[]) => void;
  error: string | undefined;
}) {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const results = useApiQuery(
    ['idea-search', projectId, q],
    () =>
      api.GET('/projects/{projectId}/features', {
        params: { path: { projectId }, query: { q, limit: 8, sort: 'votes' } },
      }),
    { enabled: q.length > 0 },
  );
  const linked = new Set(ideas.map((idea) => idea.id));
  return (
    <fieldset className="idea-picker">
      <legend>Linked ideas</legend>
      {ideas.length > 0 ? (
        <ul className="idea-results" aria-label="Linked ideas">
          {ideas.map((idea) => (
            <li key={idea.id} className="row">
              <span>
                Ships <strong>{idea.title}</strong>
              </span>
              <Button
                variant="quiet"
                onPress={() => onChange(ideas.filter((other) => other.id !== idea.id))}
                aria-label={`Unlink “${idea.title}”`}
              >
                Unlink
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None: a standalone entry.</p>
      )}
      {error ? <p className="field-error">{error}</p> : null}
      <Field
        label="Find an idea"
        type="search"
        value={search}
        onChange={setSearch}
        description="Search the project's ideas by title or description, then link one or more. Publishing moves them to Done and tells their followers."
      />
      {q ? (
        results.isPending ? (
          <p className="muted" role="status">
            Searching…
          </p>
        ) : results.isError ? (
          <ErrorNote error={results.error} />
        ) : results.data.features.length === 0 ? (
          <p className="muted" role="status">
            No idea matches “{q}”.
          </p>
        ) : (
          <ul className="idea-results" aria-label="Matching ideas">
            {results.data.features.map((feature: Feature) => (
              <li key={feature.id} className="row">
                <span className="idea-title">{feature.title}</span>
                <span className="muted">
                  {STATUS_LABELS[feature.status]}
                  {feature.internal ? ' · internal' : ''}
                </span>
                <Button
                  variant="secondary"
                  aria-label={`Link “${feature.title}”`}
                  isDisabled={linked.has(feature.id)}
                  onPress={() => {
                    onChange([...ideas, { id: feature.id, title: feature.title }]);
                    setSearch('');
                  }}
                >
                  Link
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </fieldset>
  );
}
