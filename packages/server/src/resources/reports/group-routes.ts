/**
 * Error groups in the management API (issue 31): the list (filters, sorts, cursor, counts per SDK
 * environment), a group with its tag facets, its events and one event, its status, merge and
 * unmerge. Routes parse, check access, call the store and present.
 */
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { ProjectParams } from '../../http/management-schemas.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import {
  ErrorEventDetail,
  ErrorEventPage,
  ErrorGroupDetail,
  ErrorGroupPage,
  EventListQuery,
  EventParams,
  GroupListQuery,
  GroupParams,
  GroupStatusBody,
  MergeBody,
} from './group-schemas.ts';
import { presentGroupSummary } from './group-presenter.ts';
import { ErrorHistory, HistoryQuery } from './management-schemas.ts';
import { type HistoryRange, readGroupHistory } from './store-history.ts';
import {
  decodeCursor,
  type GroupSort,
  getGroup,
  groupCountsByEnvironment,
  listGroupEvents,
  listGroups,
  mergedGroups,
  newestRecordOf,
  tagFacets,
} from './store-group-reads.ts';
import { familyOf, type GroupStatus } from './store-groups.ts';
import { groupEventDetail, groupEventPage, mergeErrorGroups, unmergeErrorGroup } from './group-service.ts';
import { changeGroupStatus } from './service.ts';
import { suspectFlagsOf } from './suspect-flags.ts';

const tags = ['error-groups'];
type Params = { projectId: string; groupId: string };

const badQuery = (field: string, message: string) =>
  new BadRequestError(`Invalid query parameter ${field}: ${message}`, [{ field, message }]);

export async function errorGroupRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  const detail = async (projectId: string, groupId: string) => {
    const group = await getGroup(db, projectId, groupId);
    if (!group) throw new NotFoundError();
    const family = await familyOf(db, groupId);
    const [facets, merged, events, recordId, suspects] = await Promise.all([
      tagFacets(db, family),
      mergedGroups(db, groupId),
      listGroupEvents(db, groupId, undefined, 1),
      newestRecordOf(db, family),
      suspectFlagsOf(db, group),
    ]);
    return {
      ...presentGroupSummary(group),
      keptEvents: events?.kept ?? 0,
      recordId,
      tags: facets,
      merged: merged.map(presentGroupSummary),
      suspectFlags: suspects.flags,
    };
  };

  app.get(
    '/projects/:projectId/error-groups',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListErrorGroups',
        summary:
          'List error groups with filters (status, SDK environment, release, level, tag, text), sorted by last seen, count or users, by cursor',
        tags,
        params: ProjectParams,
        querystring: GroupListQuery,
        response: { 200: ErrorGroupPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params as { projectId: string };
      const query = request.query as Record<string, string | number | undefined>;
      const sort = (query['sort'] as GroupSort | undefined) ?? 'lastSeen';
      const cursor = query['cursor'] as string | undefined;
      if (cursor !== undefined && !decodeCursor(cursor, sort)) throw badQuery('cursor', 'not a cursor of this sort');
      const rawTag = query['tag'] as string | undefined;
      const at = rawTag?.indexOf(':') ?? -1;
      const filter = {
        environment: query['environment'] as KeyEnvironment | undefined,
        status: query['status'] as string | undefined,
        release: query['release'] as string | undefined,
        level: query['level'] as string | undefined,
        tag: rawTag && at > 0 ? { key: rawTag.slice(0, at), value: rawTag.slice(at + 1) } : undefined,
        q: query['q'] as string | undefined,
      };
      const sdkEnvironment = query['sdkEnvironment'] as string | undefined;
      const [page, environments] = await Promise.all([
        listGroups(db, projectId, { ...filter, sdkEnvironment, sort, cursor, limit: (query['limit'] as number) ?? 50 }),
        groupCountsByEnvironment(db, projectId, filter),
      ]);
      return { groups: page.rows.map(presentGroupSummary), nextCursor: page.nextCursor, environments };
    },
  );

  app.get(
    '/projects/:projectId/error-groups/:groupId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetErrorGroup',
        summary: 'An error group: releases, counts, users, tag facets and the groups merged into it',
        tags,
        params: GroupParams,
        response: { 200: ErrorGroupDetail, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params as Params;
      return detail(projectId, groupId);
    },
  );

  app.get(
    '/projects/:projectId/error-groups/:groupId/history',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageErrorGroupHistory',
        summary:
          'Events of an error group (merged groups included) over the last 24 hours by hour or 14 days by day, UTC, zero-filled',
        tags,
        params: GroupParams,
        querystring: HistoryQuery,
        response: { 200: ErrorHistory, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params as Params;
      if (!(await getGroup(db, projectId, groupId))) throw new NotFoundError();
      const range = (request.query as { range?: HistoryRange }).range ?? '24h';
      return { range, ...(await readGroupHistory(db, await familyOf(db, groupId), range, new Date())) };
    },
  );

  app.get(
    '/projects/:projectId/error-groups/:groupId/events',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListErrorGroupEvents',
        summary: "A group's kept events, newest first, by cursor",
        tags,
        params: GroupParams,
        querystring: EventListQuery,
        response: { 200: ErrorEventPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params as Params;
      const query = request.query as { cursor?: string; limit?: number };
      return groupEventPage(db, projectId, groupId, query.cursor, query.limit ?? 25);
    },
  );

  app.get(
    '/projects/:projectId/error-groups/:groupId/events/:eventId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetErrorGroupEvent',
        summary: 'One event of a group, in full, with its place among the kept events',
        tags,
        params: EventParams,
        response: { 200: ErrorEventDetail, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, groupId, eventId } = request.params as Params & { eventId: string };
      return groupEventDetail(db, projectId, groupId, eventId);
    },
  );

  app.patch(
    '/projects/:projectId/error-groups/:groupId',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetErrorGroupStatus',
        summary: 'Resolve (now or in the next release), ignore or reopen an error group',
        tags,
        params: GroupParams,
        body: GroupStatusBody,
        response: { 200: ErrorGroupDetail, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params as Params;
      const body = request.body as { status: GroupStatus; inNextRelease?: boolean };
      const done = await changeGroupStatus(db, projectId, groupId, body.status, body.inNextRelease === true);
      if (!done) throw new NotFoundError();
      return detail(projectId, groupId);
    },
  );

  app.post(
    '/projects/:projectId/error-groups/:groupId/merge',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageMergeErrorGroups',
        summary:
          'Merge groups into this one: they are listed no more, their events, users and tags show here and their next events count here',
        tags,
        params: GroupParams,
        body: MergeBody,
        response: { 200: ErrorGroupDetail, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { projectId, groupId } = request.params as Params;
      const { groupIds } = request.body as { groupIds: string[] };
      await mergeErrorGroups(db, projectId, groupId, groupIds);
      return detail(projectId, groupId);
    },
  );

  app.post(
    '/projects/:projectId/error-groups/:groupId/unmerge',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageUnmergeErrorGroup',
        summary: 'Take a merged group out of the group it was merged into, with its own events and counts',
        tags,
        params: GroupParams,
        response: { 200: ErrorGroupDetail, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply: FastifyReply) => {
      const { projectId, groupId } = request.params as Params;
      await unmergeErrorGroup(db, projectId, groupId);
      return reply.send(await detail(projectId, groupId));
    },
  );
}
