/**
 * People (issue 30): every end user a project sees is one person, whatever way it arrived (a
 * public API `voterId`, a board user, a contact e-mail). `person_aliases` maps each of those keys
 * to the person; `companies` are the host app's accounts people belong to (SSO `company` claim).
 *
 * Backfill: every board user, every voter and every contact e-mail seen so far becomes a person
 * (a board user and a contact e-mail on a feature with the same address are one person). A module, not SQL:
 * the ids are made here, in chunks, the same on both databases.
 */
import type { Database, Queryable } from '../db/database.ts';
import { newId } from '../kernel/ids.ts';

const CHUNK = 1000;

const TABLES = `
CREATE TABLE companies (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- The host app's id of the company (the SSO claim company.id).
  external_id TEXT NOT NULL,
  name TEXT,
  plan TEXT,
  -- In the host app's currency unit, per month: what "value" sums in the inbox.
  monthly_revenue DOUBLE PRECISION,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, external_id)
);
CREATE TABLE people (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  -- The host app's user id (SSO sub), when known.
  external_id TEXT,
  board_user_id TEXT REFERENCES board_users(id) ON DELETE SET NULL,
  email TEXT,
  name TEXT,
  avatar_url TEXT,
  company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
);
CREATE INDEX people_by_project ON people (project_id, last_seen_at, id);
CREATE INDEX people_by_company ON people (company_id);
-- kind: voter_id (the votes table's voter_id, board voters as board:<id>), board_user, email.
CREATE TABLE person_aliases (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, kind, value)
);
CREATE INDEX person_aliases_by_person ON person_aliases (person_id)`;

interface Seed {
  project_id: string;
  value: string;
  seen: string;
}

export async function up(q: Queryable, _dialect: Database['dialect']): Promise<void> {
  for (const statement of TABLES.split(';')) await q.run(statement);

  // Board users: a person each, known by the board user id, its voter id and its address.
  for (let offset = 0; ; offset += CHUNK) {
    const users = await q.all<{
      id: string;
      project_id: string;
      email: string;
      name: string | null;
      external_id: string | null;
      created_at: string;
    }>('SELECT id, project_id, email, name, external_id, created_at FROM board_users ORDER BY id LIMIT ? OFFSET ?', [
      CHUNK,
      offset,
    ]);
    for (const user of users) {
      const id = newId('per');
      await q.run(
        `INSERT INTO people (id, project_id, external_id, board_user_id, email, name, first_seen_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [id, user.project_id, user.external_id, user.id, user.email, user.name, user.created_at, user.created_at],
      );
      for (const [kind, value] of [
        ['board_user', user.id],
        ['voter_id', `board:${user.id}`],
        ['email', user.email],
      ] as const) {
        await q.run(
          'INSERT INTO person_aliases (project_id, kind, value, person_id) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
          [user.project_id, kind, value, id],
        );
      }
    }
    if (users.length < CHUNK) break;
  }

  await seed(
    q,
    'voter_id',
    `SELECT f.project_id, v.voter_id AS value, MIN(v.created_at) AS seen FROM votes v JOIN features f ON f.id = v.feature_id
     GROUP BY f.project_id, v.voter_id ORDER BY f.project_id, v.voter_id LIMIT ? OFFSET ?`,
  );
  await seed(
    q,
    'email',
    `SELECT project_id, LOWER(contact_email) AS value, MIN(created_at) AS seen FROM features
     WHERE contact_email IS NOT NULL GROUP BY project_id, LOWER(contact_email)
     ORDER BY project_id, LOWER(contact_email) LIMIT ? OFFSET ?`,
  );
}

/** A person for each key the query lists that no alias knows yet. */
async function seed(q: Queryable, kind: 'voter_id' | 'email', query: string): Promise<void> {
  for (let offset = 0; ; offset += CHUNK) {
    const rows = await q.all<Seed>(query, [CHUNK, offset]);
    for (const row of rows) {
      const known = await q.get(
        'SELECT 1 AS found FROM person_aliases WHERE project_id = ? AND kind = ? AND value = ?',
        [row.project_id, kind, row.value],
      );
      if (known) continue;
      const id = newId('per');
      await q.run('INSERT INTO people (id, project_id, email, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)', [
        id,
        row.project_id,
        kind === 'email' ? row.value : null,
        row.seen,
        row.seen,
      ]);
      await q.run('INSERT INTO person_aliases (project_id, kind, value, person_id) VALUES (?, ?, ?, ?)', [
        row.project_id,
        kind,
        row.value,
        id,
      ]);
    }
    if (rows.length < CHUNK) break;
  }
}
