/** Site configuration (maintenance, status messages, feature flags, environments, debug mode). */
// The seed and tests: the writes that fill a configuration.
export { insertEnvironment, insertMessage, putFlag } from './store.ts';
// For error groups' suspect flags (issue 33): the flags changed shortly before a group began.
export { flagChangesBetween, type FlagChangeRow } from './store-flag-changes.ts';
