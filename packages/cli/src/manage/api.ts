/**
 * The management API's answers as types, generated from the server's OpenAPI snapshot
 * (`npm run generate:api` writes api.gen.ts from packages/server/test/fixtures/openapi/management.json
 * before every build and type-check), so a field the server renames or drops fails the CLI's
 * type-check instead of printing `undefined`. Name an answer by its operation id:
 * `Answer<'manageGetFeature'>`.
 */
import type { operations } from './api.gen.ts';

type Success<Responses> = Responses extends { 200: infer Ok }
  ? Ok
  : Responses extends { 201: infer Created }
    ? Created
    : never;

/** The JSON body of an operation's successful answer. */
export type Answer<Operation extends keyof operations> =
  Success<operations[Operation]['responses']> extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body an operation takes. */
export type Body<Operation extends keyof operations> = operations[Operation] extends {
  requestBody?: { content: { 'application/json': infer Sent } };
}
  ? Sent
  : never;
