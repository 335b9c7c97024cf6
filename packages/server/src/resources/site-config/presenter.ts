import { isTrue } from '../../db/database.ts';
import { type FlagValueType, parseTargeting } from './flag-targeting.ts';
import type { EnvironmentRow, FlagRow, MaintenanceRow, MessageRow } from './store.ts';

export function presentMaintenance(row: MaintenanceRow) {
  const whitelist = JSON.parse(row.whitelist) as Record<string, string[] | undefined>;
  return {
    enabled: isTrue(row.enabled),
    type: row.type,
    customHtml: row.custom_html,
    expectedRestoration: row.expected_restoration,
    showStatusLink: isTrue(row.show_status_link),
    statusPageUrl: row.status_page_url,
    whitelist: {
      localStorageKeys: whitelist['localStorageKeys'] ?? [],
      emails: whitelist['emails'] ?? [],
      ips: whitelist['ips'] ?? [],
    },
  };
}

export function presentMessage(row: MessageRow, now = new Date().toISOString()) {
  const isActive = isTrue(row.is_active);
  return {
    id: row.id,
    projectId: row.project_id,
    type: row.type,
    text: row.text,
    isActive,
    priority: Number(row.priority),
    startsAt: row.starts_at,
    expiresAt: row.expires_at,
    live:
      isActive && (row.starts_at === null || row.starts_at <= now) && (row.expires_at === null || row.expires_at > now),
    createdAt: row.created_at,
  };
}

export function presentFlag(row: FlagRow) {
  const targeting = parseTargeting(row.targeting);
  return {
    id: row.id,
    projectId: row.project_id,
    key: row.key,
    enabled: isTrue(row.enabled),
    type: row.value_type as FlagValueType,
    value: targeting.value ?? (row.value_type === 'boolean' ? true : null),
    environmentValues: targeting.environmentValues ?? {},
    ...(targeting.offValue === undefined ? {} : { offValue: targeting.offValue }),
    rolloutPercentage: targeting.rolloutPercentage ?? null,
    rules: targeting.rules ?? [],
    createdAt: row.created_at,
  };
}

export function presentEnvironment(row: EnvironmentRow) {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    url: row.url,
    color: row.color,
    debugEnabled: isTrue(row.debug_enabled),
    position: Number(row.position),
    createdAt: row.created_at,
  };
}
