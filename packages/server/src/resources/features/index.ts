/**
 * The features resource (feature requests and bugs, their votes and comments, the roadmap,
 * moderation and merging): what other resources, the surfaces, seed and cli may import.
 */
export { createFeature, FEATURE_SUBMISSION_LIMIT, type FeatureSubmission, type Submitter } from './service.ts';
export {
  DESCRIPTION_LENGTH,
  FEATURE_STATUSES,
  FILTER_STATUSES,
  TITLE_LENGTH,
  type FeatureStatus,
} from './schemas.ts';
export { STATUS_LABELS } from './status-labels.ts';
// A release going live ships the ideas and bugs resolved in it (resources/release-hub).
export { shipFeaturesInRelease } from './release-shipping.ts';
// Importers (resources/imports): history from another tool, written without domain events.
export {
  insertImportedComment,
  insertImportedComments,
  insertImportedFeature,
  insertImportedFeatures,
  insertImportedVotes,
  importDigest,
  importedCommentDigests,
  importedFeatureDigests,
  newImportedCommentId,
  newImportedFeatureId,
  updateImportedComment,
  updateImportedFeature,
  type ImportedComment,
  type ImportedFeature,
  type ImportedVote,
} from './store-import.ts';
export { backdateFeature, getFeature, insertFeature, type FeatureRow, type NewFeature } from './store.ts';
// POST /bugs still builds its linked feature itself; it moves to createFeature with the reports resource.
export {
  approveHeldComment,
  approveHeldFeature,
  heldItemAuthor,
  holdComment,
  holdFeature,
  listModerationQueue,
  rejectHeldComment,
  rejectHeldFeature,
  type ModerationKind,
  type ModerationOutcome,
  type ModerationRow,
} from './store-moderation.ts';
// The public board: its idea list (filters, sorts, full-text search) and "similar ideas" suggestions.
export {
  listBoardIdeas,
  suggestSimilarIdeas,
  searchWords,
  type BoardIdea,
  type BoardIdeaQuery,
  type BoardSort,
} from './board-read-model.ts';
// The dashboard's home: ideas that need attention across an account's projects.
export {
  listAwaitingModeration,
  listIdeasToTriage,
  listMostVotedOpenIdeas,
  type AttentionIdeaRow,
} from './attention-read-model.ts';
// Erasing a person (resources/people/service.ts), in its transaction.
export { eraseFeatureActivity, type AuthorKeys, type ContentErasure } from './store-erasure.ts';
// Merging two people (resources/people/service.ts): one vote per idea kept, in its transaction.
export { keepOneVotePerIdea } from './store-votes.ts';
// Ideas' stored value after a person's company or votes changed (merge, erasure).
export { refreshValuesOfVoters } from './store-value.ts';
