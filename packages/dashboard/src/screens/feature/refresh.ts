/** After a change to an idea: its detail and the inbox's list show it. */
import { useQueryClient } from '@tanstack/react-query';
import { featureKey, featuresKey, type ManagedFeature } from '../../api/features.ts';

export function useRefresh(feature: ManagedFeature) {
  const queryClient = useQueryClient();
  return (changed?: ManagedFeature) => {
    if (changed) queryClient.setQueryData(featureKey(feature.projectId, feature.id), changed);
    else void queryClient.invalidateQueries({ queryKey: featureKey(feature.projectId, feature.id) });
    void queryClient.invalidateQueries({ queryKey: featuresKey(feature.projectId) });
  };
}
