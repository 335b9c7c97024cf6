/**
 * The MCP tool `feedback`: the team's work on ideas and bugs (the inbox). Each action calls what
 * the management API calls: listManagedFeatures, getFeature, insertComment, insertTeamComment
 * (internal notes), updateFeature (followers told through feature.status-changed, with the
 * response and notify choice), setFeatureTags, mergeFeature, the release hub's links, votersOf and
 * the people resource's personPage and export (handed in), teamAttachments. A person's erasure is left to
 * the dashboard and the management API (docs/mcp.md says why).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type AreaAction,
  registerAreaTool,
  itemUri,
  required,
  ToolError,
  type ToolContext,
} from '../../routing/mcp/tool-context.ts';
import type { ProjectRow } from '../projects/index.ts';
import { listTags, setFeatureTags, tagsOfFeatures } from '../tags/index.ts';
import { listManagedFeatures, type ManagedSort } from './management-read-model.ts';
import { presentComment, presentManagedFeature } from './management-presenter.ts';
import { createFeatureOnBehalf } from './on-behalf.ts';
import { DESCRIPTION_LENGTH, FEATURE_STATUSES, TITLE_LENGTH } from './schemas.ts';
import { insertComment, listCommentPage } from './store-comments.ts';
import { mergeFeature } from './store-merge.ts';
import { findFeature, updateFeature, type FeatureRow } from './store.ts';
import { peopleByAlias, personPage, searchPeople } from '../people/index.ts';
import { featureLinks, linkFeatureToGroup, unlinkFeatureFromGroup } from '../release-hub/index.ts';
import { errorGroupIdOf } from '../reports/index.ts';
import { insertTeamComment } from './store-comments.ts';
import { votersOf } from './voters.ts';
import { teamAttachments } from './widget-service.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SORTS = ['votes', 'newest', 'oldest', 'comments', 'updated', 'trending'] as const;
const Id = z.string().min(1).max(100);

const params = {
  featureId: Id.optional().describe('idea or bug'),
  query: z.string().max(200).optional().describe('search, person: words'),
  status: z.enum(FEATURE_STATUSES).optional(),
  type: z.enum(['feature', 'bug']).optional(),
  sort: z.enum(SORTS).optional().describe('search: default votes'),
  limit: z.number().int().min(1).max(50).optional(),
  offset: z.number().int().min(0).optional(),
  body: z.string().min(1).max(5000).optional(),
  response: z.string().min(1).max(5000).optional().describe('set_status: public reply'),
  notify: z.boolean().optional().describe('set_status: false: no e-mail'),
  errorId: Id.optional().describe('link, unlink'),
  personId: Id.optional().describe('create: or e-mail'),
  title: z.string().max(200).optional(),
  tags: z.array(z.string().min(1).max(100)).max(20).optional().describe('tag: replaces'),
  targetId: Id.optional().describe('merge: kept idea'),
};
type Args = { [K in keyof typeof params]?: z.infer<(typeof params)[K]> };

const summaryOf = (row: FeatureRow, tags: { name: string }[]) => ({
  id: row.id,
  uri: itemUri(row.project_id, 'ideas', row.id),
  title: row.title,
  type: row.type,
  status: row.status,
  internal: Number(row.internal) === 1,
  voteCount: Number(row.vote_count),
  commentCount: Number(row.comment_count),
  tags: tags.map((tag) => tag.name),
  createdAt: row.created_at,
});

/** The item of this project and key environment, or a tool error saying how to find one. */
async function existing(ctx: ToolContext, project: ProjectRow, id: string): Promise<FeatureRow> {
  const row = await findFeature(ctx.db, { projectId: project.id, environment: ctx.principal.environment }, id);
  if (!row) throw new ToolError(`Idea "${id}" not found in project "${project.id}". Find ids with action search.`);
  return row;
}

/** An idea with its comments: what action get and the idea resource answer. */
export async function readIdea(ctx: ToolContext, project: ProjectRow, id: string) {
  const row = await existing(ctx, project, id);
  const [tags, comments] = await Promise.all([
    tagsOfFeatures(ctx.db, [row.id]),
    listCommentPage(ctx.db, row.id, 50, 0),
  ]);
  // The people who wrote the comments on the board, as the management API shows them.
  const authors = await peopleByAlias(
    ctx.db,
    project.id,
    'board_user',
    comments.rows.flatMap((comment) => (comment.board_user_id ? [comment.board_user_id] : [])),
  );
  const { contactEmail: _contact, metadata: _metadata, ...idea } = presentManagedFeature(row, tags.get(row.id) ?? []);
  return {
    ...idea,
    uri: itemUri(project.id, 'ideas', row.id),
    comments: comments.rows.map((comment) => presentComment(comment, authors)),
    commentsTotal: comments.total,
  };
}

async function tagIdsOf(ctx: ToolContext, projectId: string, wanted: string[]): Promise<string[]> {
  const known = await listTags(ctx.db, projectId);
  const ids = wanted.map(
    (name) => known.find((tag) => tag.id === name || tag.name.toLowerCase() === name.toLowerCase())?.id,
  );
  const unknown = wanted.filter((_name, index) => ids[index] === undefined);
  if (unknown.length > 0) {
    const names = known.map((tag) => tag.name).join(', ') || 'none yet (create them in the dashboard)';
    throw new ToolError(`No such tag in this project: ${unknown.join(', ')}. Its tags: ${names}.`);
  }
  return ids as string[];
}

/** The idea and the error group a link names, both of this project and key environment. */
async function linkArgs(ctx: ToolContext, project: ProjectRow, args: Args, action: string) {
  const featureId = required(args.featureId, 'featureId', action);
  await existing(ctx, project, featureId);
  const errorId = required(args.errorId, 'errorId', action);
  const groupId = await errorGroupIdOf(ctx.db, project.id, ctx.principal.environment, errorId);
  if (!groupId) {
    throw new ToolError(`Error group "${errorId}" not found in project "${project.id}". Find ids with errors search.`);
  }
  return { featureId, groupId };
}

/**
 * `exportPerson` is the people resource's export_person action (people/mcp-export.ts), handed in
 * by src/mcp/server.ts: the export reads every resource, so features may not import it.
 */
export function registerFeedbackTool(server: McpServer, ctx: ToolContext, exportPerson: AreaAction): void {
  registerAreaTool(server, ctx, {
    name: 'feedback',
    title: 'Ideas and bugs',
    description:
      'Triage ideas and bugs. search; get: comments, tags, errors; person: personId, query (name, e-mail) or voters of featureId; attachments; create: title, body, personId; comment (public, as Team); note (internal); set_status (e-mails followers); tag; merge featureId into targetId; link/unlink errorId; export_person (admins).',
    params,
    actions: {
      async search(args: Args, project) {
        const sort: ManagedSort = args.sort ?? 'votes';
        const { rows, total, totalCapped } = await listManagedFeatures(ctx.db, project.id, {
          environment: ctx.principal.environment,
          status: args.status,
          type: args.type,
          q: args.query,
          sort,
          limit: args.limit ?? 10,
          offset: args.offset ?? 0,
        });
        const items = rows.map((row) => summaryOf(row, row.tags));
        // A search past its cap counts "more than" (search-read-model.ts).
        const of = totalCapped ? `more than ${total - 1}` : `${total}`;
        return { summary: `${items.length} of ${of} items, sorted by ${sort}.`, data: { items, total } };
      },
      async get(args: Args, project) {
        const idea = await readIdea(ctx, project, required(args.featureId, 'featureId', 'get'));
        const links = await featureLinks(ctx.db, project.id, idea.id);
        const item = { ...idea, errorGroups: links.groups, resolution: links.resolution };
        return { summary: `${item.type} ${item.id}: ${item.title} (${item.status}).`, data: { item } };
      },
      async comment(args: Args, project) {
        const featureId = required(args.featureId, 'featureId', 'comment');
        await existing(ctx, project, featureId);
        const row = await insertComment(
          ctx.db,
          { projectId: project.id, environment: ctx.principal.environment },
          featureId,
          { body: required(args.body, 'body', 'comment'), authorName: 'Team' },
        );
        if (!row) throw new ToolError(`Idea "${featureId}" is internal: only public ideas take comments.`);
        return { summary: `Commented on ${featureId}.`, data: { item: presentComment(row) } };
      },
      async set_status(args: Args, project) {
        const featureId = required(args.featureId, 'featureId', 'set_status');
        const status = required(args.status, 'status', 'set_status');
        await existing(ctx, project, featureId);
        const scope = { projectId: project.id, environment: ctx.principal.environment };
        const row = await updateFeature(ctx.db, scope, featureId, {
          status,
          response: args.response,
          notify: args.notify,
        });
        if (!row) throw new ToolError(`Idea "${featureId}" was deleted meanwhile.`);
        const told = args.notify === false ? 'no follower is told' : 'its followers are e-mailed of a change';
        return {
          summary: `${featureId} is now ${row.status}; ${told}.`,
          data: { item: summaryOf(row, []) },
        };
      },
      async note(args: Args, project) {
        const featureId = required(args.featureId, 'featureId', 'note');
        await existing(ctx, project, featureId);
        const row = await insertTeamComment(ctx.db, project.id, featureId, {
          body: required(args.body, 'body', 'note'),
          accountId: ctx.principal.accountId ?? null,
          authorName: 'Team',
          internal: true,
        });
        if (!row) throw new ToolError(`Idea "${featureId}" was deleted meanwhile.`);
        return { summary: `Added an internal note to ${featureId}.`, data: { item: presentComment(row) } };
      },
      async link(args: Args, project) {
        const { featureId, groupId } = await linkArgs(ctx, project, args, 'link');
        await linkFeatureToGroup(ctx.db, project.id, groupId, featureId);
        const links = await featureLinks(ctx.db, project.id, featureId);
        return {
          summary: `Linked ${featureId} to error group ${groupId}.`,
          data: { item: { id: featureId, errorGroups: links.groups } },
        };
      },
      async unlink(args: Args, project) {
        const { featureId, groupId } = await linkArgs(ctx, project, args, 'unlink');
        if (!(await unlinkFeatureFromGroup(ctx.db, project.id, groupId, featureId))) {
          throw new ToolError(`${featureId} is not linked to error group ${groupId}.`);
        }
        const links = await featureLinks(ctx.db, project.id, featureId);
        return {
          summary: `Unlinked ${featureId} from error group ${groupId}.`,
          data: { item: { id: featureId, errorGroups: links.groups } },
        };
      },
      async person(args: Args, project) {
        if (args.personId !== undefined) {
          const page = await personPage(ctx.db, project.id, args.personId);
          if (!page) throw new ToolError(`Person "${args.personId}" not found in project "${project.id}".`);
          return { summary: `${page.person.name ?? page.person.email ?? page.person.id}.`, data: { item: page } };
        }
        if (args.query !== undefined && args.featureId === undefined) {
          const found = await searchPeople(ctx.db, project.id, { q: args.query, limit: args.limit ?? 10 });
          return {
            summary: `${found.people.length} people match "${args.query}"; read one with personId.`,
            data: { items: found.people, total: found.people.length, more: found.nextCursor !== null },
          };
        }
        const featureId = required(args.featureId, 'featureId, personId or query', 'person');
        await existing(ctx, project, featureId);
        const { votes, total } = await votersOf(ctx.db, project.id, featureId, args.limit ?? 20, args.offset ?? 0);
        return { summary: `${votes.length} of ${total} voters of ${featureId}.`, data: { items: votes, total } };
      },
      async create(args: Args, project) {
        const title = required(args.title, 'title', 'create').trim();
        const description = required(args.body, 'body (the description)', 'create').trim();
        const who = required(args.personId, 'personId (a person id or an e-mail address)', 'create').trim();
        if (title.length < TITLE_LENGTH.min || title.length > TITLE_LENGTH.max) {
          throw new ToolError(`title must be ${TITLE_LENGTH.min} to ${TITLE_LENGTH.max} characters.`);
        }
        if (description.length < DESCRIPTION_LENGTH.min || description.length > DESCRIPTION_LENGTH.max) {
          throw new ToolError(`body must be ${DESCRIPTION_LENGTH.min} to ${DESCRIPTION_LENGTH.max} characters.`);
        }
        // The team files for its real users: ideas filed for a person are live items, as in the dashboard.
        if (ctx.principal.environment !== 'live') {
          throw new ToolError('Filing for a person needs a live key or connection; test keys cannot.');
        }
        if (who.includes('@') && !EMAIL.test(who)) throw new ToolError(`"${who}" is not an e-mail address.`);
        const row = await createFeatureOnBehalf(ctx.db, project.id, ctx.config.platformProjectId, {
          title,
          description,
          type: args.type,
          author: who.includes('@') ? { email: who } : { personId: who },
        });
        const tags = (await tagsOfFeatures(ctx.db, [row.id])).get(row.id) ?? [];
        return {
          summary: `Filed ${row.type} ${row.id} for ${who} with their vote (status ${row.status}).`,
          data: { item: summaryOf(row, tags) },
        };
      },
      export_person: exportPerson,
      async attachments(args: Args, project) {
        const featureId = required(args.featureId, 'featureId', 'attachments');
        await existing(ctx, project, featureId);
        const { attachments } = await teamAttachments(ctx.db, project.id, featureId);
        return {
          summary: `${attachments.length} attachments on ${featureId}.`,
          data: { items: attachments, total: attachments.length },
        };
      },
      async tag(args: Args, project) {
        const featureId = required(args.featureId, 'featureId', 'tag');
        await existing(ctx, project, featureId);
        const ids = await tagIdsOf(ctx, project.id, required(args.tags, 'tags', 'tag'));
        await setFeatureTags(ctx.db, project.id, featureId, ids);
        const tags = (await tagsOfFeatures(ctx.db, [featureId])).get(featureId) ?? [];
        return {
          summary: `${featureId} is tagged ${tags.map((tag) => tag.name).join(', ') || '(none)'}.`,
          data: { item: { id: featureId, tags: tags.map((tag) => tag.name) } },
        };
      },
      async merge(args: Args, project) {
        const featureId = required(args.featureId, 'featureId', 'merge');
        const targetId = required(args.targetId, 'targetId', 'merge');
        await existing(ctx, project, featureId);
        await existing(ctx, project, targetId);
        const outcome = await mergeFeature(ctx.db, project.id, featureId, targetId);
        return {
          summary: `Merged ${featureId} into ${targetId}: ${outcome.votesMoved} votes and ${outcome.commentsMoved} comments moved.`,
          data: {
            item: summaryOf(outcome.feature, []),
            mergedId: featureId,
            votesMoved: outcome.votesMoved,
            commentsMoved: outcome.commentsMoved,
          },
        };
      },
    },
  });
}
