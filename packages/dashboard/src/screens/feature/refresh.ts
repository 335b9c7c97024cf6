/** After a change to an idea: its detail and the inbox's list show it; the one PATCH of an idea's screens. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client.ts';
import { featureKey, featuresKey, type ManagedFeature } from '../../api/features.ts';
import type { paths } from '../../api/schema.gen.ts';

/** The body of PATCH /projects/{id}/features/{featureId}: only the fields that change. */
export type FeatureChanges = paths['/projects/{projectId}/features/{featureId}']['patch']['requestBody'] extends
  | { content: { 'application/json': infer B } }
  | undefined
  ? B
  : never;

export function useRefresh(feature: ManagedFeature) {
  const queryClient = useQueryClient();
  return (changed?: ManagedFeature) => {
    if (changed) queryClient.setQueryData(featureKey(feature.projectId, feature.id), changed);
    else void queryClient.invalidateQueries({ queryKey: featureKey(feature.projectId, feature.id) });
    void queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
  };
}

/**
 * Saves changes to an idea (`mutate(changes)`), then `onSaved(changed, changes)` and the idea's
 * detail and the inbox's list show the saved idea. The description form and triage use it.
 */
export function usePatchFeature(
  feature: ManagedFeature,
  onSaved: (changed: ManagedFeature, changes: FeatureChanges) => void,
) {
  const refresh = useRefresh(feature);
  return useMutation({
    mutationFn: (changes: FeatureChanges) =>
      unwrap(
        api.PATCH('/projects/{projectId}/features/{featureId}', {
          params: { path: { projectId: feature.projectId, featureId: feature.id } },
          body: changes,
        }),
      ),
    onSuccess: (changed, changes) => {
      onSaved(changed, changes);
      refresh(changed);
    },
  });
}
