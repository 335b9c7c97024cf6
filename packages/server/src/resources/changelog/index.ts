/** The changelog: entries standalone or linked to a feature, drafts and published ones. */
// The seed writes a project's sample entries.
export { insertEntry } from './store.ts';
// Deleting and merging features carry their entries along (in the feature's transaction).
export { detachEntriesFromFeature, moveEntriesToFeature } from './store.ts';
// The board: an idea's page lists the published entries that tell about it.
export { listPublishedEntriesOfFeature } from './read-model.ts';
// The public board's changelog page and feed: published entries with the public idea each shipped.
export { listBoardChangelog, type BoardChangelogEntry, type ShippedIdea } from './read-model.ts';
// The board's feed sanitises entry descriptions again as it writes them.
export { sanitizeDescription } from './sanitize.ts';
// Importers write another tool's entries as they were, announcing nothing (in the import's transaction).
export { insertImportedEntry, updateImportedEntry, type ImportedEntry, type StandaloneStatus } from './store.ts';
