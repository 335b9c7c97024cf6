/**
 * Full export and restore (issue 36): the whole instance as one zip of JSON lines, a file per
 * table, with a manifest naming the schema version (the last migration) and each table's columns.
 *
 * Why one generic exporter here and not a page query in every owning store: export and restore
 * copy rows, they apply no rule of any resource, and a table added later is exported without
 * anyone remembering to (a per-store exporter would silently miss it). The tables are listed from
 * the database itself; what is left out is named below, by kind. Each table is read in pages of
 * its primary key (keyset, never OFFSET), and each page is written to the zip before the next is
 * read, so memory holds one page. Restore writes in the manifest's order (parents before children,
 * from the foreign keys), through the target's own triggers.
 *
 * Secrets are not exported: key hashes, sessions, tokens, sign-in links, the instance key (from
 * which SSO and webhook secrets are derived, so those are new on the restored instance), and
 * account passwords (people sign in again by a reset link). API keys are re-issued on restore:
 * the restore answers the new keys once.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type * as Fflate from 'fflate';
import { lazyModule } from '../kernel/lazy-module.ts';
import { generateApiKey, hashApiKey, lookupOf, type KeyEnvironment } from '../kernel/api-keys.ts';
import type { Database, Queryable, Row, SqlValue } from './database.ts';

// Loaded on first use (an upload, an import, a backup), not at start.
const fflate = lazyModule<typeof Fflate>('fflate', import.meta.url);

export const ARCHIVE_FORMAT = 'signpost-export/1';
const PAGE = 500;

/** Tables never exported: secrets and sign-in state, caches rebuilt by triggers or workers, bookkeeping. */
const LEFT_OUT = new Set([
  'schema_migrations',
  'named_locks',
  'instance_keys',
  'sessions',
  'account_links',
  'board_sessions',
  'board_sign_in_links',
  'personal_access_tokens',
  'oidc_requests',
  'sign_in_throttle',
  'rate_limit_heads',
  'rate_limit_hits',
  'oauth_codes',
  'oauth_tokens',
  'oauth_consent_requests',
  // Kept by triggers on features, and the SQLite log-key index, which its sweep rebuilds.
  'feature_counts',
  'feature_words',
  'log_group_keys',
  'log_group_key_sweeps',
]);

/** Columns that hold secrets, left out of their table's rows. */
const SECRET_COLUMNS: Record<string, readonly string[]> = {
  api_keys: ['secret_hash', 'lookup'],
  accounts: ['password_hash'],
  oauth_clients: ['secret_hash'],
};

export interface TableInfo {
  name: string;
  columns: string[];
  primaryKey: string[];
  /** Tables this one references (foreign keys). */
  parents: string[];
  /** Columns that are NOT NULL. */
  notNull: string[];
  /** Single-column foreign keys: this table's column, the parent table and its column. */
  fks: { from: string; table: string; to: string }[];
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  schemaVersion: string;
  sourceDialect: Database['dialect'];
  exportedAt: string;
  /** Set in a project's archive. */
  projectId?: string;
  tables: { name: string; columns: string[]; rows: number }[];
  leftOut: string[];
}

async function tablesOf(db: Queryable & { dialect: Database['dialect'] }): Promise<TableInfo[]> {
  const infos: TableInfo[] = [];
  if (db.dialect === 'sqlite') {
    const names = await db.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'features_fts%' ORDER BY name",
    );
    for (const { name } of names) {
      const columns = await db.all<{ name: string; pk: number; notnull: number }>(
        `SELECT name, pk, "notnull" FROM pragma_table_info('${name}')`,
      );
      const fks = await db.all<{ table: string; from: string; to: string }>(
        `SELECT "table", "from", "to" FROM pragma_foreign_key_list('${name}')`,
      );
      infos.push({
        name,
        columns: columns.map((c) => c.name),
        notNull: columns.filter((c) => Number(c.notnull) === 1 || Number(c.pk) > 0).map((c) => c.name),
        primaryKey: columns
          .filter((c) => Number(c.pk) > 0)
          .sort((a, b) => Number(a.pk) - Number(b.pk))
          .map((c) => c.name),
        parents: [...new Set(fks.map((f) => f.table))],
        fks: fks.map((f) => ({ from: f.from, table: f.table, to: f.to })),
      });
    }
    return infos;
  }
  // A partition (db/time-partitions.ts) is not a table of its own here: its rows are its parent's.
  const names = await db.all<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
       AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition AND relnamespace = current_schema()::regnamespace)
     ORDER BY table_name`,
  );
  for (const { name } of names) {
    const columns = await db.all<{ name: string; nullable: string }>(
      // Generated columns (features.search_document) are computed by the database, never written.
      "SELECT column_name AS name, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position",
      [name],
    );
    const pk = await db.all<{ name: string }>(
      `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = ?::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
      [name],
    );
    const fks = await db.all<{ parent: string; from_col: string; to_col: string }>(
      `SELECT c.confrelid::regclass::text AS parent, a.attname AS from_col, af.attname AS to_col FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = c.confkey[1]
       WHERE c.contype = 'f' AND c.conrelid = ?::regclass`,
      [name],
    );
    infos.push({
      name,
      columns: columns.map((c) => c.name),
      notNull: columns.filter((c) => c.nullable === 'NO').map((c) => c.name),
      primaryKey: pk.map((c) => c.name),
      parents: [...new Set(fks.map((f) => f.parent.replace(/^"|"$/g, '')))],
      fks: fks.map((f) => ({ from: f.from_col, table: f.parent.replace(/^"|"$/g, ''), to: f.to_col })),
    });
  }
  return infos;
}

/** Parents before children (a table referencing itself is fine: its rows come in key order). */
function inDependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const ordered: TableInfo[] = [];
  const visit = (table: TableInfo, path: Set<string>) => {
    if (done.has(table.name) || path.has(table.name)) return;
    path.add(table.name);
    for (const parent of table.parents) {
      const info = byName.get(parent);
      if (info && parent !== table.name) visit(info, path);
    }
    done.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

const quote = (name: string) => `"${name}"`;

/** A value as JSON: bytes as {"$bytes": base64}, everything else as it is. */
function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (typeof value === 'bigint') return Number(value);
  return value;
}

function decode(value: unknown): SqlValue {
  if (value !== null && typeof value === 'object' && '$bytes' in value) {
    return new Uint8Array(Buffer.from(String((value as { $bytes: string }).$bytes), 'base64'));
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SqlValue;
}

interface Filter {
  sql: string;
  params: SqlValue[];
}

/**
 * A project's rows of a table: its own `project_id`, else through the first foreign key to a
 * table that has the project's rows (votes through features, events through error groups).
 * undefined: an instance-level table (accounts, teams), not in a project's archive.
 */
function projectFilter(tables: Map<string, TableInfo>, projectId: string): (table: TableInfo) => Filter | undefined {
  const memo = new Map<string, Filter | undefined>();
  const of = (table: TableInfo, depth: number): Filter | undefined => {
    if (memo.has(table.name)) return memo.get(table.name);
    let filter: Filter | undefined;
    if (table.name === 'projects') filter = { sql: '"id" = ?', params: [projectId] };
    else if (table.columns.includes('project_id')) filter = { sql: '"project_id" = ?', params: [projectId] };
    else if (depth < 4) {
      // A NOT NULL key first: a nullable one (a comment's board user) would miss the rows without it.
      const keys = [...table.fks].sort(
        (a, b) => Number(table.notNull.includes(b.from)) - Number(table.notNull.includes(a.from)),
      );
      for (const fk of keys) {
        const parent = tables.get(fk.table);
        const parentFilter = parent && parent.name !== table.name ? of(parent, depth + 1) : undefined;
        if (!parentFilter) continue;
        filter = {
          sql: `${quote(fk.from)} IN (SELECT ${quote(fk.to)} FROM ${quote(fk.table)} WHERE ${parentFilter.sql})`,
          params: parentFilter.params,
        };
        break;
      }
    }
    memo.set(table.name, filter);
    return filter;
  };
  return (table) => of(table, 0);
}

/** Every page of a table, in primary-key order (keyset: the last key of a page starts the next). */
async function* pagesOf(db: Queryable, table: TableInfo, columns: string[], filter?: Filter): AsyncGenerator<Row[]> {
  const key = table.primaryKey.length > 0 ? table.primaryKey : columns;
  const select = `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table.name)}`;
  const order = ` ORDER BY ${key.map(quote).join(', ')} LIMIT ${PAGE}`;
  let after: SqlValue[] | undefined;
  for (;;) {
    const conditions = [
      ...(filter ? [filter.sql] : []),
      ...(after === undefined ? [] : [`(${key.map(quote).join(', ')}) > (${key.map(() => '?').join(', ')})`]),
    ];
    const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
    const rows = await db.all<Row>(`${select}${where}${order}`, [...(filter?.params ?? []), ...(after ?? [])]);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = key.map((k) => last[k] as SqlValue);
  }
}

/**
 * Writes the whole instance, or one project (`projectId`: its rows of every table that has them,
 * without its team, so a restore makes it an instance admin's to assign), as a zip to `out`;
 * answers the manifest once `out` has had everything.
 */
export async function exportArchive(
  db: Database,
  out: Writable,
  schemaVersion: string,
  options: { projectId?: string | undefined } = {},
): Promise<Manifest> {
  let failed: Error | undefined;
  const { Zip, ZipDeflate } = fflate();
  const zip = new Zip((error, data, final) => {
    if (error) failed = error;
    else out.write(data);
    if (final) out.end();
  });
  const all = inDependencyOrder(await tablesOf(db));
  const filterOf = options.projectId
    ? projectFilter(new Map(all.map((t) => [t.name, t])), options.projectId)
    : undefined;
  const included = all.filter((t) => !LEFT_OUT.has(t.name) && (!filterOf || filterOf(t)));
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    schemaVersion,
    sourceDialect: db.dialect,
    exportedAt: new Date().toISOString(),
    ...(options.projectId ? { projectId: options.projectId } : {}),
    tables: [],
    leftOut: all.filter((t) => !included.includes(t)).map((t) => t.name),
  };
  for (const table of included) {
    const secret = SECRET_COLUMNS[table.name] ?? [];
    const columns = table.columns.filter((c) => !secret.includes(c));
    const entry = new ZipDeflate(`tables/${table.name}.jsonl`, { level: 6 });
    zip.add(entry);
    let rows = 0;
    for await (const page of pagesOf(db, table, table.columns, filterOf?.(table))) {
      const lines = page.map((row) =>
        JSON.stringify(
          columns.map((c) =>
            options.projectId && table.name === 'projects' && c === 'team_id' ? null : encode(row[c]),
          ),
        ),
      );
      entry.push(new TextEncoder().encode(`${lines.join('\n')}\n`));
      rows += page.length;
      // Let the output drain before the next page, so memory holds one page.
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    entry.push(new Uint8Array(0), true);
    manifest.tables.push({ name: table.name, columns, rows });
  }
  const head = new ZipDeflate('manifest.json');
  zip.add(head);
  head.push(new TextEncoder().encode(JSON.stringify(manifest, null, 2)), true);
  zip.end();
  if (failed) throw failed;
  return manifest;
}

/** Writes the whole instance to `file` (a zip); answers its manifest once the file is complete. */
export async function exportInstance(db: Database, file: string, schemaVersion: string): Promise<Manifest> {
  const out = createWriteStream(file);
  const manifest = await exportArchive(db, out, schemaVersion);
  if (!out.writableFinished) await once(out, 'finish');
  return manifest;
}

/** A restore refused before anything was written (a newer schema, a database already in use). */
export class RestoreError extends Error {}

export interface RestoreResult {
  manifest: Manifest;
  /** The re-issued API keys, shown once: the old ones cannot be restored (only their hashes were kept). */
  keys: { id: string; projectId: string; environment: string; name: string; key: string }[];
}

/**
 * Restores an archive into an empty instance (migrated, no projects but what first start made,
 * which are replaced): rows are inserted table by table in the archive's order, one transaction.
 */
export async function restoreInstance(db: Database, file: string): Promise<RestoreResult> {
  const targets = new Map((await tablesOf(db)).map((t) => [t.name, t]));
  // Pass one: the manifest (at the end of the zip; small), to know every table's columns.
  let manifestText = '';
  await readZip(
    file,
    async (name, lines) => {
      if (name === 'manifest.json') manifestText += lines.join('\n');
    },
    (name) => name === 'manifest.json',
  );
  const manifest = JSON.parse(manifestText) as Manifest;
  if (manifest.format !== ARCHIVE_FORMAT) throw new RestoreError(`not a Signpost export (${manifest.format})`);
  const columnsOf = new Map(manifest.tables.map((t) => [t.name, t.columns]));
  const keys: RestoreResult['keys'] = [];
  const applied = await db.get<{ found: number }>('SELECT COUNT(*) AS found FROM schema_migrations WHERE id = ?', [
    manifest.schemaVersion,
  ]);
  if (Number(applied?.found ?? 0) === 0) {
    throw new RestoreError(
      `the archive's schema (${manifest.schemaVersion}) is newer than this server's: upgrade the server first`,
    );
  }
  await db.transaction(async (tx) => {
    // Empty: no row in any table the archive fills (a server's first start already made projects).
    for (const table of manifest.tables) {
      if (targets.has(table.name) && (await tx.get(`SELECT 1 AS found FROM ${quote(table.name)} LIMIT 1`))) {
        throw new RestoreError(
          `the database is not empty (${table.name}): restore into a new database, before the server first starts on it`,
        );
      }
    }
    await readZip(
      file,
      async (name, lines) => {
        const table = name.replace(/^tables\//, '').replace(/\.jsonl$/, '');
        const target = targets.get(table);
        const columns = columnsOf.get(table);
        if (!target || !columns) return;
        const kept = columns.filter((c) => target.columns.includes(c));
        const extra = table === 'api_keys' ? ['lookup', 'secret_hash'] : [];
        const identity = db.dialect === 'postgres' && (table === 'log_lines' || table === 'webhook_deliveries');
        const sql = `INSERT INTO ${quote(table)} (${[...kept, ...extra].map(quote).join(', ')})${identity ? ' OVERRIDING SYSTEM VALUE' : ''} VALUES (${[...kept, ...extra].map(() => '?').join(', ')})`;
        for (const line of lines) {
          if (line === '') continue;
          const values = JSON.parse(line) as unknown[];
          const row = new Map(columns.map((c, i) => [c, values[i]]));
          const params = kept.map((c) => decode(row.get(c)));
          if (table === 'api_keys') {
            const environment = row.get('environment') as KeyEnvironment;
            const key = generateApiKey(environment);
            params.push(lookupOf(key), hashApiKey(key));
            keys.push({
              id: String(row.get('id')),
              projectId: String(row.get('project_id')),
              environment,
              name: String(row.get('name') ?? ''),
              key,
            });
          }
          await tx.run(sql, params);
        }
      },
      (name) => name.startsWith('tables/'),
    );
    if (db.dialect === 'postgres') {
      for (const [table, column] of [
        ['log_lines', 'id'],
        ['webhook_deliveries', 'seq'],
      ] as const) {
        await tx.run(
          `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), COALESCE((SELECT MAX(${column}) FROM ${table}), 0) + 1, false)`,
        );
      }
    }
  });
  return { manifest, keys };
}

/**
 * Reads the zip's entries in order, streaming: each entry's complete lines go to `onLines` in
 * batches, and the file is read on only after they were handled.
 */
async function readZip(
  file: string,
  onLines: (name: string, lines: string[]) => Promise<void>,
  wanted: (name: string) => boolean,
): Promise<void> {
  const pending: { name: string; lines: string[] }[] = [];
  const partial = new Map<string, string>();
  const { Unzip, UnzipInflate } = fflate();
  const unzip = new Unzip((entry) => {
    if (!wanted(entry.name)) return;
    const decoder = new TextDecoder();
    entry.ondata = (error, data, final) => {
      if (error) throw error;
      const text = (partial.get(entry.name) ?? '') + decoder.decode(data, { stream: !final });
      const lines = text.split('\n');
      const rest = final ? '' : lines.pop()!;
      partial.set(entry.name, rest);
      if (lines.length > 0) pending.push({ name: entry.name, lines });
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    unzip.push(chunk as Uint8Array);
    while (pending.length > 0) {
      const next = pending.shift()!;
      await onLines(next.name, next.lines);
    }
  }
  unzip.push(new Uint8Array(0), true);
  while (pending.length > 0) {
    const next = pending.shift()!;
    await onLines(next.name, next.lines);
  }
}
