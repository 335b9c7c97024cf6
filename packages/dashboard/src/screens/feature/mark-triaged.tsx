/** The "Needs triage" mark on an idea nobody acted on yet, with "Mark triaged" for admins. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import type { ManagedFeature } from '../../api/features.ts';
import { Button, ErrorNote } from '../../ui.tsx';
import { useRefresh } from './refresh.ts';

/**
 * An idea nobody has acted on yet says so, with a button to mark it triaged (looked at) without
 * changing it (admins; members see the badge only); a status change or an edit triages it too.
 */
export function MarkTriaged({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const queryClient = useQueryClient();
  const mark = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/features/triage', {
          params: { path: { projectId: feature.projectId } },
          body: { ids: [feature.id] },
        }),
      ),
    onSuccess: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: ['me', 'attention'] });
    },
  });
  if (feature.triagedAt !== null) return null;
  return (
    <div className="row">
      <span className="badge badge-warn">Needs triage</span>
      {admin ? (
        <Button variant="secondary" busy={mark.isPending} onPress={() => mark.mutate()}>
          Mark triaged
        </Button>
      ) : null}
      {mark.isError ? <ErrorNote error={mark.error} /> : null}
    </div>
  );
}
