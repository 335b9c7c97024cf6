/** The changelog: entries standalone or linked to a feature, drafts and published ones. */
// The seed writes a project's sample entries.
export { insertEntry } from './store.ts';
