/**
 * @signpost/site-manager: a project's site configuration (maintenance, status messages, feature
 * flags, environments) with ETag caching and polling, the maintenance whitelist, the version
 * check and change events. DOM gate at `/gate`, OpenFeature provider at `/openfeature`, React at `/react`.
 */
export { createSiteManager } from './manager.js';
export type { SiteConfigChange, SiteManager, SiteManagerOptions, SiteManagerStatus } from './manager.js';
export { evaluateMaintenance, ipMatches } from './whitelist.js';
export type { MaintenanceState, Visitor } from './whitelist.js';
export { ApiError, SdkError } from '@signpost/sdk-core';
export type {
  Environment,
  FeatureFlag,
  Maintenance,
  MaintenanceType,
  MaintenanceWhitelist,
  MessageType,
  SiteConfig,
  StatusMessage,
  VersionInfo,
} from './types.js';
