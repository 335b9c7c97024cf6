/**
 * A site's environments and status messages as the management API and MCP change them: the checks,
 * the write (read back in the same transaction, so a racing DELETE answers 404 rather than nothing)
 * and its audit-log entry, in one `configWrite`.
 */
import type { Static } from 'typebox';
import type { Database } from '../../db/database.ts';
import { ConflictError } from '../../kernel/errors.ts';
import { changes, recordAudit } from '../audit/index.ts';
import { presentEnvironment, presentMessage } from './presenter.ts';
import type { CreateEnvironmentBody, CreateMessageBody, UpdateEnvironmentBody, UpdateMessageBody } from './schemas.ts';
import { checkSchedule, stamp } from './service.ts';
import {
  configWrite,
  deleteEnvironment,
  deleteMessage,
  type EnvironmentRow,
  getEnvironment,
  getMessage,
  insertEnvironment,
  insertMessage,
  type MessageRow,
  slugTaken,
  updateEnvironment,
  updateMessage,
} from './store.ts';

const slugConflict = (slug: string) => new ConflictError(`An environment with slug "${slug}" already exists`);

/** A message as the audit log keeps it: its fields, not whether it shows at this instant. */
const messageState = (row: MessageRow) => {
  const { live: _live, ...fields } = presentMessage(row);
  return fields;
};

/** Adds a message. */
export async function createMessage(
  db: Database,
  projectId: string,
  input: Static<typeof CreateMessageBody>,
): Promise<MessageRow> {
  const body = { ...input, startsAt: stamp(input.startsAt), expiresAt: stamp(input.expiresAt) };
  checkSchedule(body.startsAt ?? null, body.expiresAt ?? null);
  const created = await configWrite(db, projectId, async (tx) => {
    const row = (await getMessage(tx, projectId, await insertMessage(tx, projectId, body)))!;
    await recordAudit(tx, {
      projectId,
      action: 'message.created',
      target: { type: 'message', id: row.id },
      after: messageState(row),
    });
    return row;
  });
  return created!;
}

/** Changes a message; undefined when the project has none with this id. */
export async function editMessage(
  db: Database,
  projectId: string,
  messageId: string,
  input: Static<typeof UpdateMessageBody>,
): Promise<MessageRow | undefined> {
  const body = { ...input, startsAt: stamp(input.startsAt), expiresAt: stamp(input.expiresAt) };
  return configWrite(db, projectId, async (tx) => {
    const current = await getMessage(tx, projectId, messageId);
    if (!current) return undefined;
    checkSchedule(
      body.startsAt === undefined ? current.starts_at : body.startsAt,
      body.expiresAt === undefined ? current.expires_at : body.expiresAt,
    );
    if (!(await updateMessage(tx, projectId, messageId, body))) return undefined;
    const row = (await getMessage(tx, projectId, messageId))!;
    const diff = changes(messageState(current), messageState(row));
    await recordAudit(tx, {
      projectId,
      action: 'message.updated',
      target: { type: 'message', id: messageId },
      ...diff,
    });
    return row;
  });
}

/** Deletes a message; false when there is none. */
export async function removeMessage(db: Database, projectId: string, messageId: string): Promise<boolean> {
  const done = await configWrite(db, projectId, async (tx) => {
    const current = await getMessage(tx, projectId, messageId);
    if (!current || !(await deleteMessage(tx, projectId, messageId))) return undefined;
    await recordAudit(tx, {
      projectId,
      action: 'message.deleted',
      target: { type: 'message', id: messageId },
      before: messageState(current),
      after: null,
    });
    return true;
  });
  return done === true;
}

/** Adds an environment; 409 on a slug the project has. */
export async function createEnvironment(
  db: Database,
  projectId: string,
  input: Static<typeof CreateEnvironmentBody>,
): Promise<EnvironmentRow> {
  const created = await configWrite(db, projectId, async (tx) => {
    if (await slugTaken(tx, projectId, input.slug)) throw slugConflict(input.slug);
    const row = (await getEnvironment(tx, projectId, await insertEnvironment(tx, projectId, input)))!;
    const after = presentEnvironment(row);
    await recordAudit(tx, {
      projectId,
      action: 'environment.created',
      target: { type: 'environment', id: row.id },
      after,
    });
    return row;
  });
  return created!;
}

/** Changes an environment addressed by id or slug; undefined when there is none. */
export async function editEnvironment(
  db: Database,
  projectId: string,
  environmentId: string,
  input: Static<typeof UpdateEnvironmentBody>,
): Promise<EnvironmentRow | undefined> {
  return configWrite(db, projectId, async (tx) => {
    const current = await getEnvironment(tx, projectId, environmentId);
    if (!current) return undefined;
    const slug = input.slug;
    if (slug !== undefined && (await slugTaken(tx, projectId, slug, current.id))) throw slugConflict(slug);
    if (!(await updateEnvironment(tx, projectId, current.id, input))) return undefined;
    const row = (await getEnvironment(tx, projectId, current.id))!;
    const diff = changes(presentEnvironment(current), presentEnvironment(row));
    await recordAudit(tx, {
      projectId,
      action: 'environment.updated',
      target: { type: 'environment', id: row.id },
      ...diff,
    });
    return row;
  });
}

/** Deletes an environment addressed by id or slug; false when there is none. */
export async function removeEnvironment(db: Database, projectId: string, environmentId: string): Promise<boolean> {
  const done = await configWrite(db, projectId, async (tx) => {
    const current = await getEnvironment(tx, projectId, environmentId);
    if (!current || !(await deleteEnvironment(tx, projectId, current.id))) return undefined;
    await recordAudit(tx, {
      projectId,
      action: 'environment.deleted',
      target: { type: 'environment', id: current.id },
      before: presentEnvironment(current),
      after: null,
    });
    return true;
  });
  return done === true;
}
