/** Creating an account: the use case behind sign-up, identity-provider sign-in and the test fixtures. */
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { claimProjectForTeam } from '../projects/index.ts';
import { DEMO_PROJECT_ID } from '../../seed/first-start.ts';
import { createTeam } from '../teams/index.ts';
import { findAccount, findAccountByEmail, insertAccount, type AccountRow } from './store.ts';

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
