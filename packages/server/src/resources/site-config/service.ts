/**
 * Site configuration writes that the management API and the MCP tool `site_config` share:
 * setting a flag (fields left out keep their setting, the whole checked against its type),
 * changing maintenance settings, adding a message. Each runs in configWrite (one transaction
 * that bumps the configuration's version).
 */
import { isIP } from 'node:net';
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import { isoOrNull } from '../../db/query.ts';
import { type Actor, currentActor } from '../../kernel/actor.ts';
import { BadRequestError } from '../../kernel/errors.ts';
import {
  type FlagTargeting,
  type FlagValue,
  type FlagValueType,
  parseTargeting,
  targetingProblem,
} from './flag-targeting.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { findProject } from '../projects/index.ts';
import { presentFlag, presentMaintenance } from './presenter.ts';
import type { MaintenanceBody, PutFlagBody } from './schemas.ts';
import { type FlagActor, insertFlagChange } from './store-flag-changes.ts';
import {
  configWrite,
  deleteFlag,
  getFlag,
  putFlag,
  readMaintenance,
  setDebugMode,
  updateMaintenance,
  type FlagRow,
} from './store.ts';

function validIpRule(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/** A flag as its history keeps it: what the API presents, without its id and dates. */
function flagState(presented: ReturnType<typeof presentFlag>) {
  const { id: _id, projectId: _project, createdAt: _created, ...state } = presented;
  return state;
}

/**
 * The key environment a change is limited to: `live` or `test` when only that environment's
 * value changed, else null (the change holds for both).
 */
function changedEnvironment(before: Record<string, unknown>, after: Record<string, unknown>): string | null {
  const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
  const fields = Object.keys({ ...before, ...after }).filter((name) => differs(before[name], after[name]));
  if (fields.length !== 1 || fields[0] !== 'environmentValues') return null;
  const was = (before['environmentValues'] ?? {}) as Record<string, unknown>;
  const now = (after['environmentValues'] ?? {}) as Record<string, unknown>;
  const environments = Object.keys({ ...was, ...now }).filter((name) => differs(was[name], now[name]));
  return environments.length === 1 ? environments[0]! : null;
}

/**
 * Who a flag's history names: the caller of the request (kernel/actor.ts, the same the audit log
 * records), in the history's words: a member signed in to the dashboard, a personal access token
 * (CLI, API), an MCP client by key or grant, or the server itself.
 */
function flagActor(actor: Actor): FlagActor {
  if (actor.type === 'account') {
    return { type: actor.via === 'session' ? 'member' : 'token', id: actor.id, name: actor.name ?? actor.label };
  }
  if (actor.type === 'api_key') return { type: 'api-key', id: actor.id, name: null };
  if (actor.type === 'oauth') return { type: 'oauth', id: actor.id, name: null };
  return { type: 'system', id: null, name: null };
}

/**
 * Creates or changes a flag; `created` tells which. The change (old and new state, who) is
 * recorded in the same transaction; a PUT that changes nothing records nothing.
 */
export async function setFlag(
  db: Database,
  projectId: string,
  flagKey: string,
  body: Static<typeof PutFlagBody>,
): Promise<{ row: FlagRow; created: boolean }> {
  const actor = flagActor(currentActor());
  const { enabled, type, offValue, ...changes } = body;
  const result = await configWrite(db, projectId, async (tx) => {
    // Fields left out keep what the flag has; the whole is checked against its type.
    const existing = await getFlag(tx, projectId, flagKey);
    const valueType = type ?? ((existing?.value_type ?? 'boolean') as FlagValueType);
    const targeting: FlagTargeting = { ...parseTargeting(existing?.targeting) };
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      (targeting as Record<string, unknown>)[name] = name === 'rolloutPercentage' && value === null ? undefined : value;
    }
    if (offValue === null) delete targeting.offValue;
    else if (offValue !== undefined) targeting.offValue = offValue as FlagValue;
    const problem = targetingProblem(valueType, targeting);
    if (problem) throw new BadRequestError(problem);
    const written = await putFlag(tx, projectId, flagKey, enabled, {
      valueType,
      targeting: JSON.stringify(targeting),
    });
    // Each row presented once: the flag's history keeps its state, the audit log the whole flag.
    const presentedBefore = existing ? presentFlag(existing) : null;
    const presentedAfter = presentFlag(written.row);
    const before = presentedBefore ? flagState(presentedBefore) : null;
    const after = flagState(presentedAfter);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await insertFlagChange(
        tx,
        projectId,
        flagKey,
        {
          action: before ? 'changed' : 'created',
          environment: before ? changedEnvironment(before, after) : null,
          oldValue: before,
          newValue: after,
        },
        actor,
      );
    }
    await recordAudit(tx, {
      projectId,
      action: written.created ? 'flag.created' : 'flag.updated',
      target: { type: 'flag', id: flagKey },
      before: presentedBefore,
      after: presentedAfter,
    });
    return written;
  });
  return result!;
}

/** Deletes a flag, recording its last state; false when there is no such flag. */
export async function removeFlag(db: Database, projectId: string, flagKey: string): Promise<boolean> {
  const actor = flagActor(currentActor());
  const removed = await configWrite(db, projectId, async (tx) => {
    const existing = await getFlag(tx, projectId, flagKey);
    if (!existing || !(await deleteFlag(tx, projectId, flagKey))) return undefined;
    const presented = presentFlag(existing);
    const change = { action: 'deleted' as const, environment: null, oldValue: flagState(presented), newValue: null };
    await insertFlagChange(tx, projectId, flagKey, change, actor);
    await recordAudit(tx, {
      projectId,
      action: 'flag.deleted',
      target: { type: 'flag', id: flagKey },
      before: presented,
      after: null,
    });
    return true;
  });
  return removed === true;
}

/** Switches the SDKs' debug mode, a project setting. */
export async function changeDebugMode(db: Database, projectId: string, enabled: boolean): Promise<void> {
  await configWrite(db, projectId, async (tx) => {
    const was = Number((await findProject(tx, projectId))?.debug_mode ?? 0) === 1;
    await setDebugMode(tx, projectId, enabled);
    await recordAudit(tx, {
      projectId,
      action: 'project.settings_updated',
      target: { type: 'project', id: projectId },
      before: { debugMode: was },
      after: { debugMode: enabled },
    });
    return true;
  });
}

/** Changes maintenance settings; the whitelist merges per list. */
export async function changeMaintenance(
  db: Database,
  projectId: string,
  body: Static<typeof MaintenanceBody>,
): Promise<void> {
  const badIps = (body.whitelist?.ips ?? []).flatMap((ip, index) => (validIpRule(ip) ? [] : [index]));
  if (badIps.length > 0) {
    const details = badIps.map((index) => ({
      field: `whitelist.ips.${index}`,
      message: 'must be an IPv4 or IPv6 address, optionally with a /prefix',
    }));
    throw new BadRequestError(`Invalid field ${details[0]!.field}: ${details[0]!.message}`, details);
  }
  await configWrite(db, projectId, async (tx) => {
    const current = presentMaintenance(await readMaintenance(tx, projectId));
    const updated = await updateMaintenance(tx, projectId, {
      ...body,
      expectedRestoration: body.expectedRestoration === undefined ? undefined : isoOrNull(body.expectedRestoration),
      whitelist: body.whitelist ? { ...current.whitelist, ...body.whitelist } : undefined,
    });
    const { before, after } = changes(current, presentMaintenance(await readMaintenance(tx, projectId)));
    await recordAudit(tx, {
      projectId,
      action: 'maintenance.updated',
      target: { type: 'maintenance', id: projectId },
      before,
      after,
    });
    return updated;
  });
}

export function checkSchedule(startsAt: string | null, expiresAt: string | null): void {
  if (startsAt !== null && expiresAt !== null && expiresAt <= startsAt) {
    throw new BadRequestError('Invalid field expiresAt: must be later than startsAt', [
      { field: 'expiresAt', message: 'must be later than startsAt' },
    ]);
  }
}

export const stamp = (value: string | null | undefined) => (value === undefined ? undefined : isoOrNull(value));
