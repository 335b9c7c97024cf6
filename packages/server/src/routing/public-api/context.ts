import type { FastifyRequest } from 'fastify';
import type { TypedApp } from '../typed-app.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { ApiKeyContext as KeyContext } from '../../http/authenticate.ts';
import type { ProjectRow } from '../../resources/projects/index.ts';
import type { ResponseMemo } from '../../http/response-memo.ts';
import type { Scope } from '../../kernel/scope.ts';

import type { Permission } from '../../kernel/key-scopes.ts';

/** A public API key with its whole project row (as the projects resource's key lookup reads it). */
export type ApiKeyContext = KeyContext<ProjectRow>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a route needs; routes without one take no API key. */
    permission?: Permission;
    /** The route changes existing items: publishable keys are refused with this 403 text. */
    secretOnly?: string;
    /** Route-specific sliding-window limit, on top of the plan quota. */
    rateLimit?: { name: string; max: number; windowMs: number };
    /** The answer depends only on the URL, the key, the stored data and `memoStaleAt`: keep it for the front door. */
    memo?: boolean;
  }
  interface FastifyRequest {
    apiKey: ApiKeyContext | null;
    /** The database's change marker when a memo route's request began (see http/response-memo.ts). */
    memoMarker: number | undefined;
    /** When the answer of a memo route stops being valid even without a write (epoch ms). */
    memoStaleAt: number;
  }
}

export interface Deps {
  db: Database;
  config: Config;
  /** Where memo routes' answers are kept; absent, nothing is kept. */
  memo?: ResponseMemo;
}

export type App = TypedApp;

/** The authenticated key of a protected route (the auth hook has run before any handler). */
export function keyOf(request: FastifyRequest): ApiKeyContext {
  if (!request.apiKey) throw new Error('route has no permission configured');
  return request.apiKey;
}

/** The project and key environment a protected request reads and writes. */
export function scopeOf(request: FastifyRequest): Scope {
  const key = keyOf(request);
  return { projectId: key.project.id, environment: key.environment };
}
