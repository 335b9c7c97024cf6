/**
 * Merging a duplicate into another idea: similar ideas suggested (full-text search), or searched;
 * confirmed with what moves; then the kept idea is shown, the inbox's view kept. By keyboard: the
 * arrow keys choose a candidate, Enter on it asks to confirm (the inbox's `m` lands on the first).
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { featureKey, featuresKey, type ManagedFeature, statusLabel } from '../../api/features.ts';
import { Button, ErrorNote } from '../../ui.tsx';
import { ConfirmButton } from '../../widgets/confirm.tsx';
import { Loading, QueryView } from '../../widgets/states.tsx';
import { useApiQuery } from '../../api/use-api-query.ts';

export function Merge({ feature }: { feature: ManagedFeature }) {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<ManagedFeature | null>(null);
  // Enter on a candidate asks to merge into it at once: the merge completes from the keyboard.
  const [confirming, setConfirming] = useState(false);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const searchId = useId();
  const similar = useApiQuery(['similar', feature.projectId, feature.id], () =>
    api.GET('/projects/{projectId}/features/{featureId}/similar', {
      params: { path: { projectId: feature.projectId, featureId: feature.id }, query: { limit: 5 } },
    }),
  );
  const found = useApiQuery(
    ['merge-search', feature.projectId, feature.id, q],
    () =>
      api.GET('/projects/{projectId}/features', {
        params: {
          path: { projectId: feature.projectId },
          query: { q, environment: feature.environment, sort: 'votes', limit: 8 },
        },
      }),
    { enabled: q.length > 0 },
  );
  const search = (event: FormEvent) => {
    event.preventDefault();
    // A new search starts without a pick, so the one confirmed is always one in view.
    setTarget(null);
    setQ(text.trim());
  };
  const merge = async () => {
    if (!target) return;
    const result = await unwrap(
      api.POST('/projects/{projectId}/features/{featureId}/merge', {
        params: { path: { projectId: feature.projectId, featureId: feature.id } },
        body: { targetId: target.id },
      }),
    );
    // The merged idea's own queries are left to expire: removed while its pane is still shown, they
    // would be fetched again and answer 404. The list and the kept idea are read again.
    await queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
    await queryClient.invalidateQueries({ queryKey: featureKey(feature.projectId, target.id) });
    const moved = result.votesMoved === 1 ? '1 vote' : `${result.votesMoved} votes`;
    const comments = result.commentsMoved === 1 ? '1 comment' : `${result.commentsMoved} comments`;
    navigate(`/projects/${feature.projectId}/inbox/${target.id}${location.search}`, {
      state: {
        note: `“${feature.title}” was merged into this idea: ${moved} and ${comments} moved.`,
      },
    });
  };
  const candidates = (rows: ManagedFeature[], legend: string) => (
    <fieldset className="feature-candidates">
      <legend>{legend}</legend>
      {rows.map((row) => (
        <div key={row.id} className="checkbox">
          <input
            type="radio"
            id={`merge-${legend}-${row.id}`}
            name="merge-target"
            checked={target?.id === row.id}
            onChange={() => setTarget(row)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              setTarget(row);
              setConfirming(true);
            }}
          />
          <label htmlFor={`merge-${legend}-${row.id}`}>
            {row.title}{' '}
            <span className="muted">
              ({statusLabel(row.status)}, {row.voteCount === 1 ? '1 vote' : `${row.voteCount} votes`}
              {row.internal ? ', internal' : ''})
            </span>
          </label>
        </div>
      ))}
    </fieldset>
  );
  const searched = (found.data?.features ?? []).filter((row) => row.id !== feature.id);
  return (
    <section className="card stack" aria-labelledby="merge-title">
      <h2 id="merge-title">Merge into another idea</h2>
      <p className="muted">
        When this idea duplicates another, merge it: it is deleted and its votes (each voter counted once), comments,
        followers and linked bug reports move to the idea you pick.
      </p>
      <QueryView query={similar} what="similar ideas">
        {(data) =>
          data.features.length === 0 ? (
            <p className="muted">No similar ideas found. Search for the one to merge into.</p>
          ) : (
            candidates(data.features, 'Similar ideas')
          )
        }
      </QueryView>
      <form className="row inbox-search" onSubmit={search}>
        <div className="field">
          <label htmlFor={searchId}>Find another idea</label>
          <input
            id={searchId}
            type="search"
            value={text}
            placeholder="Words of its title"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary">
          Find
        </Button>
      </form>
      {q ? (
        found.isPending ? (
          <Loading what="ideas" />
        ) : found.isError ? (
          <ErrorNote error={found.error} />
        ) : searched.length === 0 ? (
          <p className="muted" role="status">
            No other idea matches “{q}”.
          </p>
        ) : (
          candidates(searched, 'Search results')
        )
      ) : null}
      {target ? (
        <div>
          <ConfirmButton
            label={`Merge into “${target.title}”`}
            title={`Merge into “${target.title}”?`}
            confirmLabel="Merge"
            variant="primary"
            onConfirm={merge}
            open={confirming}
            onOpenChange={setConfirming}
          >
            <p>
              “{feature.title}” will be deleted. Its votes ({feature.voteCount}) and followers move to “{target.title}”,
              with its comments ({feature.commentCount}) and linked bug reports. Voters of both count once. This cannot
              be undone.
            </p>
          </ConfirmButton>
        </div>
      ) : null}
    </section>
  );
}
