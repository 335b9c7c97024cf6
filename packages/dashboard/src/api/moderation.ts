/** The moderation queue (held ideas and comments) from the management API's schema. */
import type { paths } from './schema.gen.ts';
import { api, unwrap } from './client.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type ModerationPage = Json<paths['/projects/{projectId}/moderation']['get']['responses'][200]>;
export type ModerationItem = ModerationPage['items'][number];
export type ModerationAction = 'approve' | 'reject' | 'spam';

export const moderationKey = (projectId: string) => ['moderation', projectId] as const;

export const MODERATION_PAGE = 50;

export function loadModeration(projectId: string, offset = 0): Promise<ModerationPage> {
  return unwrap(
    api.GET('/projects/{projectId}/moderation', {
      params: { path: { projectId }, query: { limit: MODERATION_PAGE, offset } },
    }),
  );
}

/** Approve, reject or mark as spam one held item. */
export function decide(projectId: string, item: ModerationItem, action: ModerationAction): Promise<unknown> {
  if (item.kind === 'idea') {
    const params = { path: { projectId, featureId: item.id } };
    if (action === 'approve')
      return unwrap(api.POST('/projects/{projectId}/moderation/ideas/{featureId}/approve', { params }));
    if (action === 'reject')
      return unwrap(api.POST('/projects/{projectId}/moderation/ideas/{featureId}/reject', { params }));
    return unwrap(api.POST('/projects/{projectId}/moderation/ideas/{featureId}/spam', { params }));
  }
  const params = { path: { projectId, commentId: item.id } };
  if (action === 'approve')
    return unwrap(api.POST('/projects/{projectId}/moderation/comments/{commentId}/approve', { params }));
  if (action === 'reject')
    return unwrap(api.POST('/projects/{projectId}/moderation/comments/{commentId}/reject', { params }));
  return unwrap(api.POST('/projects/{projectId}/moderation/comments/{commentId}/spam', { params }));
}
