/**
 * Releases as the hub (issue 33): links between ideas or bugs and error groups, resolving items
 * in a release, and what a release broke and shipped. What other resources may import.
 */
export { releaseWentLive } from './service.ts';
// The MCP tools (feedback: links; releases: overview, resolve) call the management API's use cases.
export { featureLinks, presentResolution } from './links.ts';
export { releaseOverview } from './overview.ts';
export { linkFeatureToGroup, resolveInRelease, unlinkFeatureFromGroup } from './service.ts';
