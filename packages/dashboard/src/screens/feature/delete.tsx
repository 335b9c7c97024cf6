/** Deleting an idea with its votes and comments, after a confirmation; back to the inbox with a note. */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client.ts';
import { featureKey, featuresKey, type ManagedFeature } from '../../api/features.ts';
import { ConfirmButton } from '../../widgets/confirm.tsx';

export function Delete({ feature, inbox }: { feature: ManagedFeature; inbox: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = async () => {
    await unwrap(
      api.DELETE('/projects/{projectId}/features/{featureId}', {
        params: { path: { projectId: feature.projectId, featureId: feature.id } },
      }),
    );
    queryClient.removeQueries({ queryKey: featureKey(feature.projectId, feature.id) });
    await queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
    navigate(inbox, { state: { note: `“${feature.title}” was deleted.` } });
  };
  return (
    <section className="card stack" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      <p className="muted">
        Deleting removes the idea with its votes and comments. To keep it but hide it, make it internal.
      </p>
      <div>
        <ConfirmButton
          label="Delete this idea"
          title="Delete this idea?"
          confirmLabel="Delete idea"
          variant="danger"
          onConfirm={remove}
        >
          <p>
            “{feature.title}” is deleted with its {feature.voteCount} votes and {feature.commentCount} comments. Linked
            changelog entries keep its last status. This cannot be undone.
          </p>
        </ConfirmButton>
      </div>
    </section>
  );
}
