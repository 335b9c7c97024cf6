/**
 * @signpost/feature-reporter: feature requests and bugs, the public board (features, roadmap,
 * changelog), votes and comments. The feedback widget lives at `@signpost/feature-reporter/widget`,
 * React bindings at `@signpost/feature-reporter/react`.
 */
export { createFeatureReporter } from './client.js';
export type { FeatureReporter, FeatureReporterOptions } from './client.js';
export { validateFeedback, FEEDBACK_LIMITS } from './validate.js';
export type { FeedbackIssue } from './validate.js';
export { anonymousVoterId } from './voter.js';
export { ApiError, SdkError } from '@signpost/sdk-core';
export type {
  Attachment,
  MyIdea,
  MyIdeas,
  SuggestedIdea,
  Suggestions,
  WidgetPerson,
  Changelog,
  ChangelogEntry,
  Channel,
  Comment,
  CommentList,
  CreatedFeature,
  Feature,
  FeatureList,
  FeatureStatus,
  FeatureSummary,
  FeatureType,
  FeedbackInput,
  FilterStatus,
  ListFeaturesQuery,
  NewComment,
  PageQuery,
  Roadmap,
  RoadmapItem,
  RoadmapQuery,
  SubmitInput,
  VoteState,
} from './types.js';
