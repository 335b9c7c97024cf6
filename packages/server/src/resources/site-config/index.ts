/** Site configuration (maintenance, status messages, feature flags, environments, debug mode). */
// Project creation and settings, seed and tests: the default maintenance row, the version bump,
// and the writes that fill a configuration.
export { createMaintenanceDefaults, insertEnvironment, insertMessage, putFlag } from './store.ts';
