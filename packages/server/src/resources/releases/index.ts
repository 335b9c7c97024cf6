/** Releases of a project and the public version check that compares client versions with them. */
// The seed adds a project's sample releases.
export { insertRelease } from './store.ts';
