/**
 * A person's data (issue 36): the export of everything held about them (GDPR article 15), their
 * erasure (article 17), and the project's choice of what erasure does with their ideas and
 * comments. All admin: an export is personal data leaving the product.
 */
import { Type } from 'typebox';
import { errorResponses, Timestamp } from '../../http/common-schemas.ts';
import { NullableString, ProjectParams } from '../../http/management-schemas.ts';
import { NotFoundError } from '../../kernel/errors.ts';
import type { ManagementApp, ManagementDeps } from '../../routing/management/context.ts';
import { PersonSchema } from './presenter.ts';
import { personExport } from './person-export.ts';
import { erasePerson } from './service.ts';
import { peopleSettings, setPeopleSettings } from './store.ts';

const tags = ['people'];

const PersonParams = Type.Object({
  ...ProjectParams.properties,
  personId: Type.String({ minLength: 1, maxLength: 100 }),
});

const EraseContent = Type.Union([Type.Literal('anonymise'), Type.Literal('delete')], {
  description:
    'What erasing a person does with their ideas and comments: keep the text without its author, or delete it',
});

const PeopleSettings = Type.Object({ eraseContent: EraseContent }, { additionalProperties: false });

const obj = (properties: Parameters<typeof Type.Object>[0]) => Type.Object(properties, { additionalProperties: false });

const PersonExport = obj({
  exportedAt: Timestamp,
  person: PersonSchema,
  aliases: Type.Array(obj({ kind: Type.String(), value: Type.String() }), {
    description: 'Every key they are known by: voter ids, board users, e-mail addresses',
  }),
  boardUsers: Type.Array(
    obj({
      id: Type.String(),
      email: Type.String(),
      name: NullableString(),
      locale: Type.String(),
      createdAt: Timestamp,
    }),
  ),
  ideas: Type.Array(
    obj({
      id: Type.String(),
      title: Type.String(),
      description: Type.String(),
      type: Type.String(),
      status: Type.String(),
      contactEmail: NullableString(),
      voteCount: Type.Integer(),
      commentCount: Type.Integer(),
      createdAt: Timestamp,
    }),
  ),
  votes: Type.Array(
    obj({ featureId: Type.String(), featureTitle: Type.String(), voterId: Type.String(), createdAt: Timestamp }),
  ),
  comments: Type.Array(
    obj({
      id: Type.String(),
      featureId: Type.String(),
      body: Type.String(),
      authorName: NullableString(),
      createdAt: Timestamp,
    }),
  ),
  follows: Type.Array(obj({ featureId: Type.String(), createdAt: Timestamp })),
  emails: Type.Array(
    obj({
      id: Type.String(),
      featureId: NullableString(),
      kind: Type.String(),
      content: Type.Unknown({ description: 'What the e-mail said (its title, statuses, summary)' }),
      state: Type.String(),
      createdAt: Timestamp,
      sentAt: NullableString(),
    }),
    { description: 'E-mails queued or sent to them' },
  ),
  reports: Type.Array(
    obj({
      id: Type.String(),
      kind: Type.String(),
      title: Type.String(),
      message: Type.String(),
      metadata: Type.Unknown(),
      firstSeenAt: Timestamp,
    }),
    { description: 'Bug and error reports whose metadata names one of their addresses' },
  ),
  errorEvents: Type.Array(
    obj({
      groupId: Type.String(),
      eventId: Type.String(),
      receivedAt: Timestamp,
      release: NullableString(),
      event: Type.Unknown({ description: 'The stored event' }),
    }),
    { description: 'Error events of their user (by id or e-mail), newest 1000' },
  ),
  sessions: Type.Array(
    obj({
      sid: Type.String(),
      environment: Type.String(),
      release: Type.String(),
      sdkEnvironment: Type.String(),
      started: Timestamp,
      status: Type.String(),
    }),
    { description: 'Release-health sessions of their user (by id or e-mail), newest 1000' },
  ),
});

const count = Type.Integer({ minimum: 0 });
const Erasure = obj({
  erased: Type.Literal(true),
  content: EraseContent,
  ideas: count,
  comments: count,
  votes: Type.Integer({ minimum: 0, description: 'Votes kept, counted, and linked to nobody' }),
  follows: count,
  emails: count,
  errorEvents: count,
  reports: count,
  sessions: count,
  logGroups: count,
});

export async function personDataRoutes(app: ManagementApp, { db }: ManagementDeps): Promise<void> {
  app.get(
    '/projects/:projectId/people-settings',
    {
      config: { access: { project: 'member' } },
      schema: {
        operationId: 'manageGetPeopleSettings',
        summary: 'What erasing a person does with their ideas and comments',
        tags,
        params: ProjectParams,
        response: { 200: PeopleSettings, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      return peopleSettings(db, request.params.projectId);
    },
  );

  app.put(
    '/projects/:projectId/people-settings',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageSetPeopleSettings',
        summary: 'Sets what erasing a person does with their ideas and comments',
        tags,
        params: ProjectParams,
        body: PeopleSettings,
        response: { 200: PeopleSettings, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await setPeopleSettings(db, request.params.projectId, request.body.eraseContent);
      return peopleSettings(db, request.params.projectId);
    },
  );

  app.post(
    '/projects/:projectId/people/:personId/export',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageExportPerson',
        summary: 'Everything held about one person, as one JSON document (GDPR article 15)',
        tags,
        params: PersonParams,
        response: { 200: PersonExport, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, personId } = request.params;
      const data = await personExport(db, projectId, personId);
      if (!data) throw new NotFoundError();
      return data;
    },
  );

  app.post(
    '/projects/:projectId/people/:personId/erase',
    {
      config: { access: { project: 'admin' } },
      schema: {
        operationId: 'manageErasePerson',
        summary:
          "Erases one person (GDPR article 17): personal fields and aliases removed, ideas and comments anonymised or deleted by the project's setting, counts kept",
        tags,
        params: PersonParams,
        response: { 200: Erasure, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { projectId, personId } = request.params;
      // The erasure's audit record (issue 36's audit log) is written here, after erasePerson.
      const result = await erasePerson(db, projectId, personId);
      if (!result) throw new NotFoundError();
      return { erased: true as const, ...result };
    },
  );
}
