/**
 * Accounts' use cases: creating one (behind sign-up, identity-provider sign-in and the test
 * fixtures), changing or resetting its password, and an owner's seat limit.
 */
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { claimProjectForTeam } from '../projects/index.ts';
import { DEMO_PROJECT_ID } from '../../seed/first-start.ts';
import { createTeam, lockOwnerSeats } from '../teams/index.ts';
import { useLink } from './store-links.ts';
import { deleteAccountSessions } from './store-sessions.ts';
import {
  findAccount,
  findAccountByEmail,
  insertAccount,
  markEmailVerified,
  resetPasswordHash,
  setPasswordHash,
  setSeatLimit,
  type AccountRow,
} from './store.ts';

/** What the instance's first account owns: the platform project and the demo project. */
export const seededProjects = (config: Config) => [config.platformProjectId, DEMO_PROJECT_ID];

export interface NewAccount {
  email: string;
  name: string;
  passwordHash: string | null;
  verified: boolean;
  /** Projects the instance's first account takes over when nobody owns them yet (the seeded ones). */
  claimProjects?: readonly string[];
}

/**
 * Creates the account and its own team (it is the owner). The very first account of the instance
 * becomes the instance administrator, and its team takes over `claimProjects` if nobody owns them
 * yet (sign-up passes the platform and demo projects seeded at first start).
 */
export async function createAccount(tx: Queryable, input: NewAccount): Promise<AccountRow> {
  const { id, first } = await insertAccount(tx, input);
  const teamId = await createTeam(tx, id, input.name ? `${input.name}'s team` : 'My team');
  // The instance's first account takes over the projects no team owns yet (the seeded ones).
  if (first) for (const projectId of input.claimProjects ?? []) await claimProjectForTeam(tx, projectId, teamId);
  return (await findAccount(tx, id))!;
}

/** Creates the account, or returns undefined when the address already has one (also when two race). */
export async function createAccountUnlessTaken(db: Database, input: NewAccount): Promise<AccountRow | undefined> {
  if (await findAccountByEmail(db, input.email)) return undefined;
  try {
    return await db.transaction((tx) => createAccount(tx, input));
  } catch (error) {
    // Two sign-ups with one address at once: the unique index lets one through.
    if (await findAccountByEmail(db, input.email)) return undefined;
    throw error;
  }
}

/** Sets a new password and signs out every other session (`keepCredentialId`: the one asking). */
export async function changePassword(
  db: Database,
  accountId: string,
  passwordHash: string,
  keepCredentialId: string | undefined,
): Promise<void> {
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, accountId, passwordHash);
    await deleteAccountSessions(tx, accountId, keepCredentialId);
  });
}

/**
 * Sets a new password through a reset link checked beforehand, once: false when the link was used
 * meanwhile. Signs out every session, and verifies the address (the link reached the inbox, which
 * proves it as well as a verification link does).
 */
export async function resetPasswordWithLink(
  db: Database,
  link: { linkId: string; accountId: string; email: string },
  passwordHash: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await useLink(tx, link.linkId))) return false;
    await resetPasswordHash(tx, link.accountId, link.email, passwordHash);
    await deleteAccountSessions(tx, link.accountId);
    return true;
  });
}

/** Marks the address verified through a verification link checked beforehand, and uses the link up. */
export async function verifyEmailWithLink(
  db: Database,
  link: { linkId: string; accountId: string; email: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    await useLink(tx, link.linkId);
    await markEmailVerified(tx, link.accountId, link.email);
  });
}

/** Sets an owner's seat limit over all their teams (null: the default); false when no such account. */
export async function setOwnerSeatLimit(db: Database, accountId: string, seatLimit: number | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await findAccount(tx, accountId))) return false;
    // Invites and acceptances of this owner decide on the limit under the same lock.
    await lockOwnerSeats(tx, accountId);
    return setSeatLimit(tx, accountId, seatLimit);
  });
}
