/** `full`: the app is blocked. `banner`: the app works, a notice shows. `custom`: blocked, `customHtml` shown. */
export type MaintenanceType = 'full' | 'banner' | 'custom';

export interface MaintenanceWhitelist {
  /** A user whose `localStorage` holds any of these keys bypasses maintenance (e.g. your team). */
  localStorageKeys: string[];
  /** A user whose e-mail (set by the app with `setUser`) is listed bypasses maintenance. */
  emails: string[];
  /** A client whose IP (passed by the app with `setClientIp`) is listed bypasses maintenance. */
  ips: string[];
}

export interface Maintenance {
  enabled: boolean;
  type: MaintenanceType;
  customHtml: string | null;
  expectedRestoration: string | null;
  showStatusLink: boolean;
  statusPageUrl: string | null;
  whitelist: MaintenanceWhitelist;
}

export type MessageType = 'info' | 'success' | 'warning' | 'error';

export interface StatusMessage {
  id: string;
  projectId: string;
  type: MessageType;
  text: string;
  isActive: boolean;
  priority: number;
  startsAt: string | null;
  expiresAt: string | null;
}

export interface FeatureFlag {
  id: string;
  projectId: string;
  key: string;
  enabled: boolean;
}

export interface Environment {
  id: string;
  name: string;
  slug: string;
  url: string;
  color: string;
  debugEnabled: boolean;
}

/** GET /site-config. */
export interface SiteConfig {
  maintenance: Maintenance;
  messages: StatusMessage[];
  featureFlags: FeatureFlag[];
  debugMode: boolean;
  environments: Environment[];
  lastUpdated: string;
}

/** GET /version-check. */
export interface VersionInfo {
  updateAvailable: boolean;
  updateRequired: boolean;
  updateRecommended: boolean;
  updateType: 'major' | 'minor' | 'patch' | 'prerelease' | 'none';
  latestVersion: {
    version: string;
    title: string;
    releaseNotes: string;
    downloadUrl: string;
    releaseDate: string;
    isBeta: boolean;
  } | null;
}
