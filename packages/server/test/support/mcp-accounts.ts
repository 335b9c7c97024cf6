/** Real accounts of the management API, for hosted-MCP tests: sign up, and team set-up in the database. */
import type { Database } from '../../src/db/database.ts';
import { createProject } from '../../src/resources/projects/index.ts';
import { newId, nowIso } from '../../src/kernel/ids.ts';

export interface SignedUp {
  accountId: string;
  email: string;
  password: string;
  /** The account's own team (it is the owner). */
  teamId: string;
}

export async function signUp(
  origin: string,
  db: Database,
  email: string,
  password = 'correct horse battery',
): Promise<SignedUp> {
  const response = await fetch(`${origin}/api/v1/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: email.split('@')[0] }),
  });
  if (response.status !== 202) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const account = (await db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email.toLowerCase()]))!;
  const team = await db.get<{ team_id: string }>(
    "SELECT team_id FROM team_members WHERE account_id = ? AND role = 'owner'",
    [account.id],
  );
  return { accountId: account.id, email, password, teamId: team!.team_id };
}

/** A project owned by the team (what the dashboard's "new project" does). */
export async function teamProject(db: Database, teamId: string, name: string): Promise<string> {
  const id = newId('proj');
  await createProject(db, { id, name, slug: id, supportedLocales: ['en', 'de'] });
  await db.run('UPDATE projects SET team_id = ? WHERE id = ?', [teamId, id]);
  return id;
}

export async function addMember(
  db: Database,
  teamId: string,
  accountId: string,
  role: 'member' | 'admin',
): Promise<void> {
  await db.run('INSERT INTO team_members (team_id, account_id, role, created_at) VALUES (?, ?, ?, ?)', [
    teamId,
    accountId,
    role,
    nowIso(),
  ]);
}
