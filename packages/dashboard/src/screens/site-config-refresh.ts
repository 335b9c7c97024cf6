/** The site-config tabs' refresh hook, called after every save. */
import { useQueryClient } from '@tanstack/react-query';
import { siteConfigKey } from '../api/site-config.ts';

/** After a save: the configuration and the public answer are read again. */
export function useRefresh(projectId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: siteConfigKey(projectId) });
}
