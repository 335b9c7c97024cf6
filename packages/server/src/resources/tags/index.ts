/**
 * Tags on ideas (team-defined, shown on the board and filterable): what other resources, the
 * board pages, seed and tests may import. The board's idea list filters by tag in
 * resources/features/board-read-model.ts.
 */
export { createTag, listTags, setFeatureTags, tagsOfFeatures, type IdeaTag, type TagRow } from './store.ts';
