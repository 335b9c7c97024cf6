/** Accounts: rows, lookups by id and e-mail, creation with the account's own team. */
import { bool, isTrue, type Database, type Queryable } from '../../db/database.ts';
import { newId, nowIso } from '../../kernel/ids.ts';
import { lockNamed } from '../../db/named-lock.ts';

export interface AccountRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  email_verified: number;
  is_admin: number;
  seat_limit: number | null;
  created_at: string;
}

/** E-mail addresses are compared and stored lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findAccount(db: Queryable, id: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM accounts WHERE id = ?', [id]);
}

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRow | undefined> {
  return db.get<AccountRow>('SELECT * FROM accounts WHERE email = ?', [normaliseEmail(email)]);
}

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
  const id = newId('acct');
  const now = nowIso();
  // Concurrent first sign-ups must not both become the instance administrator.
  await lockNamed(tx, 'accounts:first');
  const first = !(await tx.get('SELECT id FROM accounts LIMIT 1'));
  await tx.run(
    `INSERT INTO accounts (id, email, name, password_hash, email_verified, is_admin, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [id, normaliseEmail(input.email), input.name, input.passwordHash, bool(input.verified), bool(first), now],
  );
  const teamId = await createTeam(tx, id, input.name ? `${input.name}'s team` : 'My team');
  for (const projectId of first ? (input.claimProjects ?? []) : []) {
    await tx.run('UPDATE projects SET team_id = ? WHERE id = ? AND team_id IS NULL', [teamId, projectId]);
  }
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

export async function createTeam(tx: Queryable, ownerId: string, name: string): Promise<string> {
  const teamId = newId('team');
  const now = nowIso();
  await tx.run('INSERT INTO teams (id, name, owner_account_id, created_at) VALUES (?, ?, ?, ?)', [teamId, name, ownerId, now]);
  await tx.run("INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, 'owner', ?)", [teamId, ownerId, now]);
  return teamId;
}

export function presentAccount(row: AccountRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    verified: isTrue(row.email_verified),
    admin: isTrue(row.is_admin),
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
  };
}
