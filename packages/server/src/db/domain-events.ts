/**
 * Things that happened, told inside the transaction that made them happen, so what reacts to them
 * (the follower e-mail outbox, later webhooks) commits or rolls back with the change itself. The
 * writer (a resource's store) emits; other resources subscribe once at start-up, without the
 * writer importing them.
 */
import type { Queryable } from './database.ts';

/** A new or regressed error group: `errorId` is the dedup record its event was counted on. */
export interface ErrorGroupEvent {
  projectId: string;
  environment: string;
  errorId: string;
  groupId: string;
  title: string;
  fingerprint: string;
  /** The SDK's environment (production, staging, …) and the event's level. */
  sdkEnvironment: string;
  level: string;
}

/** An error alert rule fired for a group (resources/reports/alerts.ts); webhooks subscribe. */
export interface ErrorAlertEvent {
  projectId: string;
  ruleId: string;
  ruleName: string;
  reason: 'new_group' | 'regression' | 'spike';
  groupId: string;
  title: string;
  sdkEnvironment: string;
  level: string;
  events?: number;
  minutes?: number;
}

export interface DomainEvents {
  /** An idea's status moved (any surface: management API, public PATCH, MCP, dashboard). */
  'feature.status-changed': {
    projectId: string;
    featureId: string;
    environment: string;
    title: string;
    from: string;
    to: string;
    /** false: the team chose not to tell followers (issue 30); missing means true. */
    notify?: boolean;
    /** The team's official response given with the change, if any. */
    response?: string | null;
    /** The change was made by publishing this changelog entry (its own notice tells followers). */
    shippedIn?: string | undefined;
    /**
     * The change was made by a release going live (issue 33): its followers are told now, under
     * the key the drafted entry's publish would use, so publishing it tells no one twice.
     */
    releasedIn?: { version: string; entryId: string | null } | undefined;
  };
  /** A feature request or bug was created (any surface). */
  'feature.created': {
    projectId: string;
    featureId: string;
    environment: string;
    title: string;
    type: string;
    status: string;
    internal: boolean;
    /**
     * The error the reporter had just hit (the widget's `metadata.errorEventId`: an error report's
     * id or a Sentry event id), for release-hub to link the item to its group (issue 33).
     */
    errorEventId?: string | undefined;
  };
  /** An idea's internal flag was toggled: `internal` false is published, true is hidden. */
  'feature.visibility-changed': {
    projectId: string;
    featureId: string;
    environment: string;
    title: string;
    internal: boolean;
  };
  /** A public comment was added to an idea (one held for moderation is not told). */
  'comment.created': {
    projectId: string;
    environment: string;
    featureId: string;
    commentId: string;
    body: string;
    authorName: string | null;
  };
  /** An error group was made (its first event; not on each repeat). */
  'error.new-group': ErrorGroupEvent;
  /** A resolved error group had a new event (it regressed). */
  'error.regressed': ErrorGroupEvent;
  'error.alert': ErrorAlertEvent;
  /** The i18n SDK reported a key missing in a locale for the first time. */
  'translation.missing-key': { projectId: string; environment: string; locale: string; key: string };
  /** A changelog entry became published (created published, or a draft published). */
  /**
   * A release went live (issue 33): created through the API, CLI, MCP or dashboard. What was
   * resolved in it ships in the same transaction (resources/release-hub); webhooks tell of it.
   */
  'release.created': { projectId: string; version: string; title: string };
  /**
   * A version no release was created for was first seen in the project's live events or sessions
   * (issue 33): it goes live as a created one does (what was resolved in it ships); no webhook.
   */
  'release.seen': { projectId: string; version: string; source: 'events' | 'sessions' };
  /**
   * A release's crash-free sessions fell below the project's threshold (`threshold`) or more than
   * its points below the previous release's (`previous`), told once per drop (issue 33).
   */
  'release.health-dropped': {
    projectId: string;
    environment: string;
    version: string;
    reason: 'threshold' | 'previous';
    crashFreeSessions: number;
    crashFreeUsers: number | null;
    sessions: number;
    threshold: number;
    maxDropPoints: number;
    previous: { version: string; crashFreeSessions: number } | null;
  };
  'changelog.published': {
    projectId: string;
    entryId: string;
    /** The first linked feature (null: standalone). */
    featureId: string | null;
    /** Every linked feature, in order. */
    featureIds: string[];
    summary: string;
  };
}

export type DomainEventName = keyof DomainEvents;
export type DomainEventHandler<K extends DomainEventName> = (
  tx: Queryable,
  event: DomainEvents[K],
  shared?: SharedReads,
) => Promise<void>;

/**
 * Reads the handlers of one write's events may share: a write that tells many events in one
 * transaction (the error writer, one event per new group) passes one map to each emit, so a
 * handler reads what it needs (a project's webhook endpoints) once per write, not once per event.
 * Within the transaction nothing else changes what was read.
 */
export type SharedReads = Map<string, Promise<unknown>>;

/** `read()` once per `shared` map and key (every time without a map). */
export function readOnce<T>(shared: SharedReads | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!shared) return read();
  let kept = shared.get(key) as Promise<T> | undefined;
  if (!kept) {
    kept = read();
    shared.set(key, kept);
  }
  return kept;
}

const handlers: { [K in DomainEventName]?: Map<string, DomainEventHandler<K>> } = {};

/**
 * Subscribes `handler` under `name` (one handler per name and event: subscribing again, as every
 * app built in one process does, replaces it).
 */
export function onDomainEvent<K extends DomainEventName>(event: K, name: string, handler: DomainEventHandler<K>): void {
  if (!handlers[event]) handlers[event] = new Map() as (typeof handlers)[K];
  (handlers[event] as Map<string, DomainEventHandler<K>>).set(name, handler);
}

/** Runs every subscriber in the caller's transaction; a subscriber's failure fails the change. */
export async function emitDomainEvent<K extends DomainEventName>(
  tx: Queryable,
  event: K,
  payload: DomainEvents[K],
  shared?: SharedReads,
): Promise<void> {
  const map = handlers[event] as Map<string, DomainEventHandler<K>> | undefined;
  if (!map) return;
  for (const handler of map.values()) await handler(tx, payload, shared);
}
