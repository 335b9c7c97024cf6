/**
 * Tags on ideas (team-defined, shown on the board and filterable): what other resources, the
 * board pages, seed and tests may import. The board's idea list filters by tag in
 * resources/features/board-read-model.ts.
 */
export {
  addImportedFeatureTags,
  changeFeaturesTags,
  importTag,
  createTag,
  listTags,
  setFeatureTags,
  tagsOfFeatures,
  unknownTagIds,
  type IdeaTag,
  type TagRow,
} from './store.ts';
export { TAG_NAME_MAX, TAGS_PER_FEATURE_MAX } from './schemas.ts';
