/** Management of a project's people: the People screen's list, a person's page, merging duplicates. */
import { Type } from 'typebox';
import { clampLimit, errorResponses, Timestamp } from '../../http/common-schemas.ts';
import { BadRequestError, NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { PersonSchema, presentPerson } from './presenter.ts';
import { personPage } from './person-data.ts';
import { mergePeople } from './service.ts';
import { listCompanies } from './store.ts';
import { searchPeople } from './search.ts';

const tags = ['people'];
const COMPANY_LIMIT = 500;

const PeopleQuery = Type.Object({
  q: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name, e-mail address or company name' }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

const PeoplePage = Type.Object(
  { people: Type.Array(PersonSchema), nextCursor: NullableString({ description: 'null on the last page' }) },
  { additionalProperties: false },
);

const PersonParams = Type.Object({
  ...ProjectParams.properties,
  personId: Type.String({ minLength: 1, maxLength: 100 }),
});

const IdeaItem = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    status: Type.String(),
    voteCount: Type.Integer(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const PersonPage = Type.Object(
  {
    person: PersonSchema,
    ideas: Type.Array(IdeaItem, { description: 'Ideas they submitted, newest first (at most 100)' }),
    votes: Type.Array(Type.Object({ ...IdeaItem.properties, votedAt: Timestamp }, { additionalProperties: false }), {
      description: 'Ideas they voted for, latest vote first (at most 100)',
    }),
    comments: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          featureId: Type.String(),
          featureTitle: Type.String(),
          body: Type.String(),
          createdAt: Timestamp,
        },
        { additionalProperties: false },
      ),
      { description: 'Their comments, newest first (at most 100)' },
    ),
  },
  { additionalProperties: false },
);

const CompanyList = Type.Object(
  {
    companies: Type.Array(
      Type.Object(
        {
          id: Type.String({
            description: 'The company filter of the inbox (`company` of GET /projects/{id}/features)',
          }),
          externalId: Type.String({ description: "The host app's id of the company" }),
          name: NullableString(),
          plan: NullableString(),
          monthlyRevenue: Type.Union([Type.Number(), Type.Null()]),
          people: Type.Integer({ description: 'How many of its people the project knows' }),
        },
        { additionalProperties: false },
      ),
      { description: `By name, at most ${COMPANY_LIMIT}` },
    ),
  },
  { additionalProperties: false },
);
const MergeBody = Type.Object(
  {
    into: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The person kept: the one in the path is merged into them and goes',
    }),
  },
  { additionalProperties: false },
);

const MergeResult = Type.Object(
  {
    person: PersonSchema,
    merged: Type.Boolean({ description: 'false: the person had already been merged into this one (nothing changed)' }),
    votesDropped: Type.Integer({ description: 'Votes removed so that the kept person has one per idea' }),
  },
  { additionalProperties: false },
);

export async function peopleManagementRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/people',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListPeople',
        summary: "The project's people, most recently seen first; search by name, e-mail or company",
        tags,
        params: ProjectParams,
        querystring: PeopleQuery,
        response: { 200: PeoplePage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      return searchPeople(db, projectId, {
        q: request.query.q,
        limit: clampLimit(request.query.limit, 50, 200),
        cursor: request.query.cursor,
      });
    },
  );

  app.get(
    '/projects/:projectId/companies',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageListCompanies',
        summary: "The project's companies (from SSO and identify claims), by name",
        tags,
        params: ProjectParams,
        response: { 200: CompanyList, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId } = request.params;
      const rows = await listCompanies(db, projectId, COMPANY_LIMIT);
      return {
        companies: rows.map((row) => ({
          id: row.id,
          externalId: row.external_id,
          name: row.name,
          plan: row.plan,
          monthlyRevenue: row.monthly_revenue === null ? null : Number(row.monthly_revenue),
          people: Number(row.people),
        })),
      };
    },
  );

  app.get(
    '/projects/:projectId/people/:personId',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetPerson',
        summary: 'A person with their company, ideas, votes and comments',
        tags,
        params: PersonParams,
        response: { 200: PersonPage, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, personId } = request.params;
      const page = await personPage(db, projectId, personId);
      if (!page) throw new NotFoundError();
      return page;
    },
  );

  app.post(
    '/projects/:projectId/people/:personId/merge',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageMergePerson',
        summary:
          'Merges a duplicate person into another: their votes, comments, ideas, aliases and company go to the person kept, one vote per idea kept; repeating it changes nothing',
        tags,
        params: PersonParams,
        body: MergeBody,
        response: { 200: MergeResult, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, personId } = request.params;
      const result = await mergePeople(db, projectId, personId, request.body.into.trim());
      if (result.outcome === 'same') {
        const message = 'must be another person than the one merged';
        throw new BadRequestError(`Invalid body field into: ${message}`, [{ field: 'into', message }]);
      }
      if (result.outcome === 'not-found') throw new NotFoundError();
      return {
        person: presentPerson(result.person),
        merged: result.outcome === 'merged',
        votesDropped: result.votesDropped,
      };
    },
  );
}
