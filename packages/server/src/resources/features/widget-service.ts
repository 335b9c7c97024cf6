/**
 * The in-app widget's use cases (issue 35), each the one call of its public route: similar ideas
 * for a title being typed (the board's search), votes and ideas of the identified person, the
 * person's own ideas with their status, and a bug report's screenshot. Identity is the host app's
 * HS256 token (resources/board widget-identity.ts); the voter is the person's board voter id, so
 * widget and board votes are one.
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { BadRequestError, NotFoundError, PayloadTooLargeError, UnauthorizedError } from '../../kernel/errors.ts';
import type { Scope } from '../../kernel/scope.ts';
import { findWidgetUser, identifyWidgetUser, readBoard } from '../board/index.ts';
import { listPublishedEntriesOfFeature } from '../changelog/index.ts';
import { suggestSimilarIdeas } from './board-read-model.ts';
import { createFeature, type FeatureSubmission } from './service.ts';
import { STATUS_LABELS } from './status-labels.ts';
import {
  attachmentContent,
  countAttachments,
  insertAttachment,
  listAttachments,
  type AttachmentRow,
} from './store-attachments.ts';
import { listOwnIdeas } from './store-own-ideas.ts';
import { addVote, removeVote, votedAmong } from './store-votes.ts';
import { findPublicFeature, getFeature, lockPublicFeature, type FeatureRow } from './store.ts';
import type { FeatureStatus } from './schemas.ts';

type Ctx = { db: Database; config: Pick<Config, 'secretKey' | 'platformProjectId'> };

/** Who is asking: the host app's token and/or the widget's anonymous id (headers, may be absent). */
export interface WidgetCaller {
  token?: string | undefined;
  visitorId?: string | undefined;
}

const VISITOR = /^[A-Za-z0-9_-]{8,64}$/;
const identityRequired = () =>
  new UnauthorizedError(
    'Identity required: send the signed X-Signpost-User token (this project takes no anonymous votes)',
  );

/** Screenshots: PNG, JPEG or WebP up to 2 MB, at most 3 per item, within an hour of filing it. */
export const ATTACHMENT_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  perFeature: 3,
  windowMs: 60 * 60_000,
  types: ['image/png', 'image/jpeg', 'image/webp'] as const,
};

function present(row: { id: string; title: string; status: string }) {
  const status = row.status as FeatureStatus;
  return {
    id: row.id,
    title: row.title,
    status,
    statusLabel: STATUS_LABELS[status] ?? status,
  };
}

/** Public ideas like `title` (the board's typo-tolerant search), with votes, status and the caller's vote. */
export async function suggestIdeas(ctx: Ctx, scope: Scope, title: string, limit: number, caller: WidgetCaller) {
  const ideas = await suggestSimilarIdeas(ctx.db, scope.projectId, title, limit, scope.environment);
  const voter = await readVoter(ctx, scope, caller);
  const voted = voter
    ? await votedAmong(
        ctx.db,
        ideas.map((idea) => idea.id),
        voter,
      )
    : new Set<string>();
  return {
    ideas: ideas.map((idea) => ({
      ...present({ id: idea.id, title: idea.title, status: idea.status }),
      voteCount: idea.voteCount,
      voted: voted.has(idea.id),
    })),
  };
}

/** The voter id of a read (no write: an unknown person has voted for nothing yet). */
async function readVoter(ctx: Ctx, scope: Scope, caller: WidgetCaller): Promise<string | undefined> {
  if (caller.token) {
    const user = await findWidgetUser(ctx.db, ctx.config, scope.projectId, caller.token);
    return user ? `board:${user.id}` : undefined;
  }
  return caller.visitorId && VISITOR.test(caller.visitorId) ? `widget:${caller.visitorId}` : undefined;
}

/** The voter id of a write: the identified person, or an anonymous visitor where the board allows anonymous votes. */
async function writeVoter(ctx: Ctx, scope: Scope, caller: WidgetCaller): Promise<string> {
  if (caller.token) return `board:${(await identifyWidgetUser(ctx.db, ctx.config, scope.projectId, caller.token)).id}`;
  if (caller.visitorId && VISITOR.test(caller.visitorId) && (await readBoard(ctx.db, scope.projectId)).anonymousVotes) {
    return `widget:${caller.visitorId}`;
  }
  throw identityRequired();
}

/** Adds (`on`) or takes back the caller's vote; 404 for anything not public in the scope. */
export async function voteFromWidget(ctx: Ctx, scope: Scope, featureId: string, caller: WidgetCaller, on: boolean) {
  const voter = await writeVoter(ctx, scope, caller);
  const voteCount = await (on ? addVote : removeVote)(ctx.db, scope, featureId, voter);
  if (voteCount === undefined) throw new NotFoundError();
  return { featureId, voteCount, voted: on };
}

/** The identified person's ideas, newest first, with status and the changelog entry that shipped each. */
export async function listMyIdeas(ctx: Ctx, scope: Scope, caller: WidgetCaller) {
  if (!caller.token) throw identityRequired();
  const user = await findWidgetUser(ctx.db, ctx.config, scope.projectId, caller.token);
  if (!user) return { ideas: [] };
  const rows = await listOwnIdeas(ctx.db, scope, user.id, 50);
  const ideas = [];
  for (const row of rows) {
    const shipped =
      row.status === 'done' ? (await listPublishedEntriesOfFeature(ctx.db, scope.projectId, row.id))[0] : undefined;
    ideas.push({
      ...present(row),
      type: row.type,
      voteCount: Number(row.vote_count),
      createdAt: row.created_at,
      shippedIn: shipped ? { id: shipped.id, summary: shipped.summary, publishedAt: shipped.published_at } : null,
    });
  }
  return { ideas };
}

/** Files an idea or bug as the identified person (it shows in their "my ideas" and on the board as theirs). */
export async function submitAsPerson(
  ctx: Ctx,
  scope: Scope,
  input: FeatureSubmission,
  caller: WidgetCaller,
): Promise<FeatureRow> {
  if (!caller.token) throw identityRequired();
  const user = await identifyWidgetUser(ctx.db, ctx.config, scope.projectId, caller.token);
  return createFeature(
    ctx.db,
    { scope, platformProjectId: ctx.config.platformProjectId },
    { ...input, boardUserId: user.id, contactEmail: input.contactEmail ?? user.email },
  );
}

const MAGIC: Record<(typeof ATTACHMENT_LIMITS.types)[number], (b: Uint8Array) => boolean> = {
  'image/png': (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) =>
    String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
};

/**
 * Stores a screenshot on an item the same key can read, filed within the last hour (the widget
 * attaches right after filing); the bytes must be the image type they claim.
 */
export async function attachScreenshot(
  ctx: Ctx,
  scope: Scope,
  featureId: string,
  contentType: string,
  content: Uint8Array,
): Promise<AttachmentRow> {
  const type = contentType.split(';')[0]!.trim().toLowerCase() as (typeof ATTACHMENT_LIMITS.types)[number];
  if (!ATTACHMENT_LIMITS.types.includes(type)) {
    throw new BadRequestError(`Unsupported attachment type: use ${ATTACHMENT_LIMITS.types.join(', ')}`, [
      { field: 'content-type', message: `must be one of ${ATTACHMENT_LIMITS.types.join(', ')}` },
    ]);
  }
  if (content.byteLength > ATTACHMENT_LIMITS.maxBytes) {
    throw new PayloadTooLargeError(`Attachments are at most ${ATTACHMENT_LIMITS.maxBytes} bytes`);
  }
  if (content.byteLength < 12 || !MAGIC[type](content)) {
    throw new BadRequestError(`The body is not a ${type} image`, [
      { field: '(body)', message: `must be a ${type} image` },
    ]);
  }
  return ctx.db.transaction(async (tx) => {
    // The feature's row lock (as votes take it) makes the count and the insert one step.
    const feature = (await lockPublicFeature(tx, scope, featureId)) && (await findPublicFeature(tx, scope, featureId));
    if (!feature) throw new NotFoundError();
    if (Date.now() - Date.parse(feature.created_at) > ATTACHMENT_LIMITS.windowMs) {
      throw new BadRequestError('Attachments are added within an hour of filing the item', [
        { field: 'featureId', message: 'filed more than an hour ago' },
      ]);
    }
    if ((await countAttachments(tx, featureId)) >= ATTACHMENT_LIMITS.perFeature) {
      throw new BadRequestError(`At most ${ATTACHMENT_LIMITS.perFeature} attachments per item`, [
        { field: 'featureId', message: `has ${ATTACHMENT_LIMITS.perFeature} attachments already` },
      ]);
    }
    return insertAttachment(tx, scope.projectId, featureId, type, content);
  });
}

function presentAttachment(row: AttachmentRow) {
  return {
    id: row.id,
    featureId: row.feature_id,
    contentType: row.content_type,
    size: row.size,
    createdAt: row.created_at,
  };
}

/** An item's attachments for the team (any item of the project, internal ones too); 404 for no such item. */
export async function teamAttachments(db: Database, projectId: string, featureId: string) {
  if (!(await getFeature(db, projectId, featureId))) throw new NotFoundError();
  return { attachments: (await listAttachments(db, projectId, featureId)).map(presentAttachment) };
}

/** One attachment's bytes for the team. */
export async function teamAttachmentContent(db: Database, projectId: string, featureId: string, id: string) {
  const row = await attachmentContent(db, projectId, featureId, id);
  if (!row) throw new NotFoundError();
  return { contentType: row.content_type, content: row.content };
}

export { presentAttachment };
