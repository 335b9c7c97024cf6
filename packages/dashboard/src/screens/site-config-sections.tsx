/** The site-config screen's maintenance, feature-flag and debug-mode tabs (one file each) and their refresh hook. */
export { DebugSection } from './site-config-debug.tsx';
export { FlagsSection } from './site-config-flags.tsx';
export { MaintenanceSection } from './site-config-maintenance.tsx';
export { useRefresh } from './site-config-refresh.ts';
