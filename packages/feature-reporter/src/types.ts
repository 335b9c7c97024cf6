/** Status of a feature request or bug on the board. `new` means not yet triaged. */
export type FeatureStatus = 'new' | 'open' | 'planned' | 'in-progress' | 'in-review' | 'accepted' | 'done' | 'declined';

/** The statuses the list and roadmap filters accept (everything but `new`). */
export type FilterStatus = Exclude<FeatureStatus, 'new'>;

/** Stored type of an item. */
export type FeatureType = 'feature' | 'bug';

/** Where a submission came from; keeps it public even with the platform project's key. */
export type Channel = 'sdk' | 'widget';

/** One item of GET /features. */
export interface FeatureSummary {
  id: string;
  projectId: string;
  title: string;
  status: FeatureStatus;
  type: FeatureType;
  voteCount: number;
  commentCount: number;
  createdAt: string;
}

/** One item of GET /features/{id}. */
export interface Feature extends FeatureSummary {
  description: string;
  internal: boolean;
}

/** The answer to a submission. */
export interface CreatedFeature extends Feature {
  message: string;
}

/** What the app sends for a feature request or a bug. */
export interface FeedbackInput {
  /** 4 to 120 characters. */
  title: string;
  /** 12 to 1000 characters. */
  description: string;
  /** The submitter's e-mail address, for follow-up. */
  contactEmail?: string;
  /** Anything that helps triage: page, plan, app version. */
  metadata?: Record<string, unknown>;
}

export interface SubmitInput extends FeedbackInput {
  /** Default `feature`. */
  type?: FeatureType;
}

export interface ListFeaturesQuery {
  status?: FilterStatus;
  type?: FeatureType;
  /** Default 50, at most 100. */
  limit?: number;
  offset?: number;
}

export interface FeatureList {
  features: FeatureSummary[];
  count: number;
  limit: number;
  offset: number;
}

export interface RoadmapItem {
  id: string;
  title: string;
  status: FilterStatus;
  voteCount: number;
  commentCount: number;
  createdAt: string;
}

export interface Roadmap {
  columns: Array<{ status: FilterStatus; items: RoadmapItem[] }>;
  total: number;
}

export interface RoadmapQuery {
  /** Only these columns. */
  status?: FilterStatus | FilterStatus[];
  /** Items over all columns; default 100, at most 200. */
  limit?: number;
}

export interface ChangelogEntry {
  id: string;
  /** Absent for a standalone entry. */
  featureId?: string;
  projectId: string;
  featureTitle: string;
  featureType: string;
  statusKey: string;
  statusLabel: string;
  summary: string;
  /** HTML. Sanitise it again before inserting it if your page has stricter rules than Signpost's. */
  description: string;
  published: boolean;
  createdAt: string;
  publishedAt: string | null;
}

export interface Changelog {
  entries: ChangelogEntry[];
  count: number;
  limit: number;
  offset: number;
}

export interface PageQuery {
  limit?: number;
  offset?: number;
}

export interface VoteState {
  featureId: string;
  voteCount: number;
  voted: boolean;
}

export interface Comment {
  id: string;
  featureId: string;
  body: string;
  authorName: string | null;
  createdAt: string;
}

export interface CommentList {
  comments: Comment[];
  count: number;
  limit: number;
  offset: number;
}

export interface NewComment {
  /** 1 to 5000 characters. */
  body: string;
  /** Up to 100 characters. */
  authorName?: string;
}

/**
 * Who the widget acts for (issue 35): `token` is the HS256 JWT your server signs with the project's
 * board SSO secret (`sub`, `email`, optional `name`, `company`; `iat` and `exp`); `visitorId` an
 * anonymous id, used only where the project allows anonymous votes.
 */
export interface WidgetPerson {
  token?: string | undefined;
  visitorId?: string | undefined;
}

export interface SuggestedIdea {
  id: string;
  title: string;
  status: FeatureStatus;
  /** The status as the board shows it ("Planned", "Done"…). */
  statusLabel: string;
  voteCount: number;
  /** Whether this person has voted for it already. */
  voted: boolean;
}

export interface Suggestions {
  ideas: SuggestedIdea[];
}

export interface MyIdea {
  id: string;
  title: string;
  type: string;
  status: FeatureStatus;
  statusLabel: string;
  voteCount: number;
  createdAt: string;
  /** The published changelog entry that shipped it. */
  shippedIn: { id: string; summary: string; publishedAt: string | null } | null;
}

export interface MyIdeas {
  ideas: MyIdea[];
}

export interface Attachment {
  id: string;
  featureId: string;
  contentType: string;
  size: number;
  createdAt: string;
}
