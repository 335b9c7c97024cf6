/**
 * OpenFeature Remote Evaluation Protocol 0.3 (OFREP) over a project's feature flags: single
 * evaluation for server providers, bulk evaluation with ETag and 304 for client providers that
 * poll. The surface (src/ofrep/plugin.ts) authenticates the key (public:read) and shapes errors;
 * the key's environment (live or test) picks the flag values.
 *
 * The bulk ETag is a hash of the project's configuration version (every site-config write bumps
 * it, see store.ts) and of the evaluation context, so a poll with an unchanged configuration and
 * context is a 304, and a changed context or flag is a 200.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import { isTrue } from '../../db/database.ts';
import { ChangeCache } from '../../http/change-cache.ts';
import { etagOf, ifNoneMatchHits } from '../../http/etag.ts';
import { VersionedCache } from '../../http/versioned-cache.ts';
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { keyOf, type App, type Deps } from '../../routing/public-api/context.ts';
import {
  type Evaluation,
  evaluateFlag,
  type FlagDefinition,
  type FlagValueType,
  parseTargeting,
} from './flag-targeting.ts';
import { readProjectConfigState, type ProjectConfigState } from './read-model.ts';
import { FLAG_KEY } from './schemas.ts';
import { listFlags } from './store.ts';

/** An OFREP error answer: the surface sends `{key?, errorCode, errorDetails}` with `status`. */
export class OfrepError extends Error {
  readonly status: number;
  readonly errorCode: string;
  readonly key: string | undefined;
  constructor(status: number, errorCode: string, errorDetails: string, key?: string) {
    super(errorDetails);
    this.status = status;
    this.errorCode = errorCode;
    this.key = key;
  }
}

/** The project configuration state and flags OFREP reads, memoised per process. */
export class OfrepFlags {
  private readonly db: Database;
  /** The project's version row, until the next commit where the database can tell (as GET /site-config). */
  readonly projects: ChangeCache<ProjectConfigState | undefined>;
  private readonly flags = new VersionedCache<Map<string, FlagDefinition>>(1000);

  constructor(db: Database) {
    this.db = db;
    this.projects = new ChangeCache(db);
  }

  async state(projectId: string): Promise<ProjectConfigState> {
    const state = await this.projects.get(projectId, () => readProjectConfigState(this.db, projectId));
    if (!state) throw new OfrepError(500, 'GENERAL', 'Project not found');
    return state;
  }

  async definitions(state: ProjectConfigState): Promise<Map<string, FlagDefinition>> {
    const version = Number(state.config_version);
    const kept = this.flags.get(state.id, version, Date.now());
    if (kept) return kept;
    const rows = await listFlags(this.db, state.id);
    const definitions = new Map(
      rows.map((row) => [
        row.key,
        {
          key: row.key,
          enabled: isTrue(row.enabled),
          type: row.value_type as FlagValueType,
          targeting: parseTargeting(row.targeting),
        },
      ]),
    );
    this.flags.set(state.id, version, definitions, undefined);
    return definitions;
  }
}

/** The evaluation context of an OFREP body, or an OfrepError (PARSE_ERROR, INVALID_CONTEXT). */
export function contextOf(body: unknown, key?: string): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw new OfrepError(400, 'PARSE_ERROR', 'The body must be a JSON object', key);
  const context = (body as { context?: unknown }).context;
  if (context === undefined || context === null) return {};
  if (typeof context !== 'object' || Array.isArray(context))
    throw new OfrepError(400, 'INVALID_CONTEXT', 'context must be an object', key);
  const targetingKey = (context as { targetingKey?: unknown }).targetingKey;
  if (targetingKey !== undefined && typeof targetingKey !== 'string')
    throw new OfrepError(400, 'INVALID_CONTEXT', 'context.targetingKey must be a string', key);
  return context as Record<string, unknown>;
}

/** JSON with object keys sorted, so one context always hashes alike. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonical((value as Record<string, unknown>)[name])}`);
  return `{${entries.join(',')}}`;
}

/** The bulk answer's entity tag: the configuration version, the key's environment and the context. */
export function bulkEtag(state: ProjectConfigState, environment: KeyEnvironment, context: Record<string, unknown>) {
  return createHash('sha256')
    .update(`${state.config_version}\n${state.config_updated_at}\n${environment}\n${canonical(context)}`)
    .digest('hex')
    .slice(0, 32);
}

function success(evaluation: Evaluation) {
  return {
    key: evaluation.key,
    ...(evaluation.value === undefined ? {} : { value: evaluation.value }),
    reason: evaluation.reason,
    variant: evaluation.variant,
    metadata: {},
  };
}

const FLAG_KEY_PATTERN = new RegExp(FLAG_KEY);

const EvaluationBody = Type.Unknown({
  description: '{"context": {"targetingKey": "user-123", …attributes}}; context and targetingKey are optional',
});

export async function ofrepRoutes(app: App, { db }: Deps, flags = new OfrepFlags(db)): Promise<void> {
  app.post(
    '/evaluate/flags/:key',
    {
      config: { permission: 'public:read' },
      schema: {
        operationId: 'ofrepEvaluateFlag',
        summary: 'Evaluate one flag (OFREP 0.3, for server providers)',
        params: Type.Object({ key: Type.String() }),
        body: EvaluationBody,
      },
    },
    async (request: FastifyRequest<{ Params: { key: string } }>) => {
      const { key } = request.params;
      const context = contextOf(request.body, key);
      const apiKey = keyOf(request);
      const definitions = await flags.definitions(await flags.state(apiKey.project.id));
      const flag = FLAG_KEY_PATTERN.test(key) ? definitions.get(key) : undefined;
      if (!flag) throw new OfrepError(404, 'FLAG_NOT_FOUND', `No flag ${key}`, key);
      return success(evaluateFlag(flag, apiKey.environment, context));
    },
  );

  app.post(
    '/evaluate/flags',
    {
      config: { permission: 'public:read' },
      schema: {
        operationId: 'ofrepEvaluateFlags',
        summary: 'Evaluate every flag (OFREP 0.3, for client providers): ETag, and 304 on If-None-Match',
        body: EvaluationBody,
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const context = contextOf(request.body);
      const apiKey = keyOf(request);
      const state = await flags.state(apiKey.project.id);
      const hash = bulkEtag(state, apiKey.environment, context);
      reply.header('etag', etagOf(hash)).header('cache-control', 'no-cache');
      if (ifNoneMatchHits(request.headers['if-none-match'], hash)) return reply.code(304).send(null);
      const definitions = await flags.definitions(state);
      return {
        flags: [...definitions.values()].map((flag) => success(evaluateFlag(flag, apiKey.environment, context))),
      };
    },
  );
}
