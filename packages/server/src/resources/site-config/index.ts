/** Site configuration (maintenance, status messages, feature flags, environments, debug mode). */
// The seed and tests: the writes that fill a configuration.
export { insertEnvironment, insertMessage, putFlag } from './store.ts';
