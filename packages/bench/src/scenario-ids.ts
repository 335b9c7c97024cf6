/**
 * The ids of the scenarios that come in sizes (roadmaps, inboxes, release pages): what BENCH_ONLY
 * names, what the seed's options are chosen by, what relative targets point at.
 */

/** The release page's API over 100 releases with `sessions` sessions in all (issue 33). */
export function releasePageScenarioId(sessions: number): string {
  return `release-page-${sessions >= 1_000_000 ? `${sessions / 1_000_000}m` : sessions >= 1000 ? `${sessions / 1000}k` : sessions}`;
}

export function roadmapScenarioId(size: number): string {
  return `roadmap-${size >= 1000 ? `${size / 1000}k` : size}`;
}

/** The inbox's list (management API) of a roadmap project of `size` items: by value, a search, a typo. */
export function inboxScenarioIds(size: number): string[] {
  const suffix = size >= 1000 ? `${size / 1000}k` : `${size}`;
  return [`inbox-value-${suffix}`, `inbox-search-${suffix}`, `inbox-typo-${suffix}`];
}

/** The public board of a roadmap project of `size` items (issue 30): its ideas page, and a search with a typo. */
export function boardSizeScenarioIds(size: number): string[] {
  const suffix = size >= 1000 ? `${size / 1000}k` : `${size}`;
  return [`board-ideas-${suffix}`, `board-typo-${suffix}`];
}

/** The hosted MCP's `logs` tool searching the log explorer's groups (scenarios-mcp.ts). */
export const MCP_LOGS_SEARCH = 'mcp-logs-search';

/** The scenarios that read the log explorer's groups: a selection with any of them seeds those. */
export const LOG_GROUP_SCENARIO_IDS: readonly string[] = [
  'logs-list',
  'logs-list-level',
  'logs-list-text',
  'logs-list-cursor',
  'logs-histogram',
  MCP_LOGS_SEARCH,
];
