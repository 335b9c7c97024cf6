/** Board settings and the moderation queue as the management API shows them. */
import type { ModerationRow } from '../features/index.ts';
import { boardUrl } from './settings.ts';
import type { BoardSettings } from './store.ts';

export function presentBoard(settings: BoardSettings, publicUrl: string, slug: string) {
  return {
    enabled: settings.enabled,
    private: settings.private,
    title: settings.title,
    logoUrl: settings.logoUrl,
    accentColor: settings.accentColor,
    customDomain: settings.customDomain,
    anonymousVotes: settings.anonymousVotes,
    moderation: settings.moderation,
    shipOnPublish: settings.shipOnPublish,
    roadmapColumns: settings.roadmapColumns,
    url: boardUrl(settings, publicUrl, slug),
    sso: { configured: settings.ssoSecretId !== null, hint: settings.ssoSecretHint },
  };
}

export function presentModerationItem(row: ModerationRow) {
  return {
    kind: row.kind,
    id: row.id,
    featureId: row.feature_id,
    featureTitle: row.feature_title,
    body: row.body,
    environment: row.environment,
    authorName: row.author_name,
    boardUserId: row.board_user_id,
    createdAt: row.created_at,
  };
}
