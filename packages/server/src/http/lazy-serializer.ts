/**
 * Response serializers compiled on first use. Fastify compiles every route's response schema with
 * fast-json-stringify when the server starts; with a few hundred routes that generated code holds
 * tens of megabytes, most of it for routes a given server never answers. This factory is
 * Fastify's own (`@fastify/fast-json-stringify-compiler`), deferred to each serializer's first call.
 */
import fastJsonStringify, { type Options } from 'fast-json-stringify';
import { onFirstUse } from './lazy-compile.ts';

type Serialize = (data: unknown) => string;

export function buildLazySerializerFactory(externalSchemas: unknown, serializerOpts: unknown) {
  const options = { ...(serializerOpts as Options), schema: externalSchemas as Options['schema'] };
  return ({ schema }: { schema?: unknown }): Serialize => {
    const compiled = onFirstUse(() => compile(schema as { $id?: string }, options));
    return (data) => compiled()(data);
  };
}

function compile(schema: { $id?: string }, options: Options): Serialize {
  // As Fastify does: a schema registered with addSchema is not also passed as an external one.
  const external = options.schema as Record<string, unknown> | undefined;
  if (external && schema.$id && external[schema.$id]) {
    const { [schema.$id]: _self, ...rest } = external;
    return fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], {
      ...options,
      schema: rest as Options['schema'],
    }) as Serialize;
  }
  return fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], options) as Serialize;
}
