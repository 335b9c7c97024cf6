/**
 * A person's data (issue 36, GDPR articles 15 and 17): everything the project holds about one end
 * user, as one JSON document, and their erasure. Both start from the person's aliases (their
 * voter ids, board users and addresses) and the ids the host app knows them by; each resource
 * lists and erases its own rows (through its index), all in one transaction for the erasure.
 *
 * Erasure is the one place a person's data goes: the audit record of it belongs next to the call
 * of `erasePerson` in management-routes.ts.
 */
import type { Database, Queryable } from '../../db/database.ts';
import { nowIso } from '../../kernel/ids.ts';
import { recordAudit } from '../audit/index.ts';
import { eraseBoardUsers } from '../board/index.ts';
import { eraseFeatureActivity, keepOneVotePerIdea, refreshValuesOfVoters } from '../features/index.ts';
import { eraseLogUser } from '../logs/index.ts';
import { eraseNotificationsOfUsers, notificationsOfUsers } from '../notifications/index.ts';
import { eraseSessionUser, sessionsOfUser } from '../release-health/index.ts';
import { eraseErrorUser, errorDataOfPerson, errorUserKeys } from '../reports/index.ts';
import { allActivityOfPerson } from './read-model.ts';
import {
  aliasesOf,
  allAliasesOf,
  deletePerson,
  getPerson,
  mergedInto,
  mergePersonRows,
  type PersonWithCompany,
  peopleSettings,
} from './store.ts';

/** Telemetry (error events, sessions) in an export: the newest this many of each. */
const TELEMETRY_LIMIT = 1000;

interface PersonKeys {
  person: PersonWithCompany;
  aliases: { kind: string; value: string }[];
  voterIds: string[];
  boardUserIds: string[];
  emails: string[];
  /** What the host app's SDKs call the user: their app id, their voter ids, their addresses. */
  userIds: string[];
}

async function keysOf(db: Queryable, projectId: string, personId: string): Promise<PersonKeys | undefined> {
  const person = await getPerson(db, projectId, personId);
  if (!person) return undefined;
  const aliases = await allAliasesOf(db, personId);
  const of = (kind: string) => aliases.filter((alias) => alias.kind === kind).map((alias) => alias.value);
  const emails = [...new Set([...of('email'), ...(person.email ? [person.email] : [])].map((e) => e.toLowerCase()))];
  const voterIds = of('voter_id');
  const userIds = [
    ...new Set([
      ...(person.external_id ? [person.external_id] : []),
      ...voterIds.filter((id) => !id.startsWith('board:')),
      ...emails,
    ]),
  ];
  return { person, aliases, voterIds, boardUserIds: of('board_user'), emails, userIds };
}

/** Everything held about one person of the project; undefined when the project has no such person. */
export async function exportPersonData(db: Database, projectId: string, personId: string) {
  const keys = await keysOf(db, projectId, personId);
  if (!keys) return undefined;
  const activity = await allActivityOfPerson(db, projectId, keys);
  const notifications = await notificationsOfUsers(db, projectId, keys.boardUserIds);
  const errors = await errorDataOfPerson(
    db,
    projectId,
    errorUserKeys(keys.userIds, keys.emails),
    keys.emails,
    TELEMETRY_LIMIT,
  );
  const sessions = await sessionsOfUser(db, projectId, keys.userIds, TELEMETRY_LIMIT);
  return { exportedAt: nowIso(), keys, activity, notifications, errors, sessions };
}

export interface ErasureResult {
  content: 'anonymise' | 'delete';
  ideas: number;
  comments: number;
  votes: number;
  follows: number;
  emails: number;
  errorEvents: number;
  reports: number;
  sessions: number;
  logGroups: number;
}

/**
 * Erases one person: their personal fields and aliases go, their ideas and comments are
 * anonymised or deleted by the project's setting, their votes, error events and sessions stay
 * counted under ids that lead to nobody, their follows and e-mails go. One transaction: a
 * failure leaves everything as it was. undefined when the project has no such person.
 */
export async function erasePerson(
  db: Database,
  projectId: string,
  personId: string,
): Promise<ErasureResult | undefined> {
  const { eraseContent } = await peopleSettings(db, projectId);
  return db.transaction(async (tx) => {
    // Read inside the transaction: an alias added meanwhile is erased too (safe to repeat).
    const keys = await keysOf(tx, projectId, personId);
    if (!keys) return undefined;
    const features = await eraseFeatureActivity(tx, projectId, keys, eraseContent);
    const notifications = await eraseNotificationsOfUsers(tx, projectId, keys.boardUserIds);
    const errors = await eraseErrorUser(tx, projectId, errorUserKeys(keys.userIds, keys.emails), keys.emails);
    const sessions = await eraseSessionUser(tx, projectId, keys.userIds);
    const logGroups = await eraseLogUser(tx, projectId, keys.userIds);
    await deletePerson(tx, projectId, personId);
    // Their votes still count, but no longer for their company's value.
    await refreshValuesOfVoters(tx, projectId, keys.voterIds);
    await eraseBoardUsers(tx, projectId, keys.boardUserIds, keys.emails);
    const result: ErasureResult = {
      content: eraseContent,
      ...features,
      ...notifications,
      errorEvents: errors.events,
      reports: errors.reports,
      sessions,
      logGroups,
    };
    // Who was erased is named by id only: the entry must not keep what the erasure removed.
    await recordAudit(tx, {
      projectId,
      action: 'person.erased',
      target: { type: 'person', id: personId },
      before: null,
      after: { ...result },
    });
    return result;
  });
}

export type MergeOutcome =
  | { outcome: 'merged' | 'already'; person: PersonWithCompany; votesDropped: number }
  | { outcome: 'not-found' }
  | { outcome: 'same' };

/**
 * Merges a duplicate person into another of the project (issue 30): the merged person's aliases,
 * and with them their votes, comments and authored ideas, become the kept person's; the kept
 * person holds one vote per idea (the earliest); their company link and missing details are
 * filled. One transaction with its audit entry. Idempotent: merging again a person already merged
 * into `intoId` answers `already` and changes nothing.
 */
export async function mergePeople(
  db: Database,
  projectId: string,
  fromId: string,
  intoId: string,
): Promise<MergeOutcome> {
  if (fromId === intoId) return { outcome: 'same' };
  return db.transaction(async (tx): Promise<MergeOutcome> => {
    const into = await getPerson(tx, projectId, intoId);
    if (!into) return { outcome: 'not-found' };
    const from = await getPerson(tx, projectId, fromId);
    if (!from) {
      if ((await mergedInto(tx, projectId, fromId)) === intoId) {
        return { outcome: 'already', person: into, votesDropped: 0 };
      }
      return { outcome: 'not-found' };
    }
    const moved = await allAliasesOf(tx, fromId);
    await mergePersonRows(tx, projectId, fromId, intoId);
    const voterIds = await aliasesOf(tx, intoId, 'voter_id');
    const { dropped } = await keepOneVotePerIdea(tx, projectId, voterIds);
    // Their votes may now count for a company (or another one).
    await refreshValuesOfVoters(tx, projectId, voterIds);
    const person = (await getPerson(tx, projectId, intoId))!;
    // Ids and counts only: the kept person's details are on their page, the merged one's are theirs now.
    await recordAudit(tx, {
      projectId,
      action: 'person.merged',
      target: { type: 'person', id: intoId },
      before: { mergedPersonId: fromId },
      after: { intoPersonId: intoId, aliasesMoved: moved.length, votesDropped: dropped },
    });
    return { outcome: 'merged', person, votesDropped: dropped };
  });
}
