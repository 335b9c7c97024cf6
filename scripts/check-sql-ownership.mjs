// Issue 12's rule "SQL lives in stores", checked: every table has one owner folder, only store
// files run SQL, only the owner writes a table, and a read of another resource's table happens in
// a read model. And issue 29's: a route file (`*routes.ts`, `*-page.ts`) opens no transaction; a
// use case that writes more than once does, in its resource's service. Scans the string and template literals of packages/server/src/**/*.ts (parsed
// with TypeScript, so comments and prose are not mistaken for SQL; keywords must be upper case).
//
//   node scripts/check-sql-ownership.mjs            fails on violations not in the baseline
//   node scripts/check-sql-ownership.mjs --update   rewrites the baseline to today's violations
//   node scripts/check-sql-ownership.mjs --all      lists every violation, known ones included
//
// The baseline (scripts/sql-ownership-known.json) counts violations per file, kind and table, so
// unrelated edits do not invalidate it; a count that grows, or a new file, table or kind, fails.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = new URL('..', import.meta.url).pathname;
const SRC = join(ROOT, 'packages/server/src');
const MIGRATIONS = join(SRC, 'migrations');
const BASELINE = join(ROOT, 'scripts/sql-ownership-known.json');

/** Owner folder of each table, relative to packages/server/src. `null`: obsolete, not checked. */
const OWNERS = {
  features: 'resources/features',
  feature_attachments: 'resources/features',
  votes: 'resources/features',
  comments: 'resources/features',
  changelog_entries: 'resources/changelog',
  changelog_entry_features: 'resources/changelog',
  changelog_readers: 'resources/changelog',
  feature_redirects: 'resources/features',
  feature_words: 'resources/features',
  features_fts_vocab: 'resources/features',
  bug_reports: 'resources/reports',
  error_reports: 'resources/reports',
  error_occurrences_hourly: 'resources/reports',
  error_groups: 'resources/reports',
  error_events: 'resources/reports',
  error_group_users: 'resources/reports',
  error_group_tags: 'resources/reports',
  error_alert_rules: 'resources/reports',
  error_alert_firings: 'resources/reports',
  error_alert_outbox: 'resources/reports',
  error_group_event_marks: 'resources/reports',
  log_groups: 'resources/logs',
  log_group_keys: 'resources/logs',
  log_group_key_sweeps: 'resources/logs',
  log_lines: 'resources/logs',
  log_line_spans: 'resources/logs',
  log_volume: 'resources/logs',
  log_group_attributes: 'resources/logs',
  maintenance_settings: 'resources/site-config',
  status_messages: 'resources/site-config',
  feature_flags: 'resources/site-config',
  flag_changes: 'resources/site-config',
  environments: 'resources/site-config',
  releases: 'resources/releases',
  release_sightings: 'resources/releases',
  source_map_blobs: 'resources/source-maps',
  source_map_artifacts: 'resources/source-maps',
  source_map_chunks: 'resources/source-maps',
  source_map_bundles: 'resources/source-maps',
  translation_keys: 'resources/translations',
  translation_values: 'resources/translations',
  missing_translations: 'resources/translations',
  projects: 'resources/projects',
  api_keys: 'resources/projects',
  accounts: 'resources/accounts',
  sessions: 'resources/accounts',
  account_links: 'resources/accounts',
  account_identities: 'resources/accounts',
  sign_in_throttle: 'resources/accounts',
  oidc_requests: 'resources/accounts',
  teams: 'resources/teams',
  team_members: 'resources/teams',
  team_invites: 'resources/teams',
  personal_access_tokens: 'resources/tokens',
  features_fts: 'resources/features',
  feature_counts: 'resources/features',
  boards: 'resources/board',
  board_users: 'resources/board',
  board_sessions: 'resources/board',
  board_sign_in_links: 'resources/board',
  tags: 'resources/tags',
  feature_tags: 'resources/tags',
  people: 'resources/people',
  person_aliases: 'resources/people',
  import_sources: 'resources/imports',
  companies: 'resources/people',
  people_settings: 'resources/people',
  person_merges: 'resources/people',
  company_value_versions: 'resources/people',
  feature_value_versions: 'resources/features',
  follows: 'resources/notifications',
  notification_outbox: 'resources/notifications',
  notification_settings: 'resources/notifications',
  webhook_endpoints: 'resources/webhooks',
  webhook_deliveries: 'resources/webhooks',
  audit_entries: 'resources/audit',
  audit_settings: 'resources/audit',
  instance_keys: 'db',
  named_locks: 'db',
  quota_usage: 'http',
  release_sessions: 'resources/release-health',
  release_session_hours: 'resources/release-health',
  release_session_users: 'resources/release-health',
  release_checks: 'resources/release-health',
  release_health_settings: 'resources/release-health',
  release_health_drops: 'resources/release-health',
  release_users: 'resources/release-health',
  release_health_totals: 'resources/release-health',
  release_check_totals: 'resources/release-health',
  error_links: 'resources/release-hub',
  release_resolutions: 'resources/release-hub',
  release_drafts: 'resources/release-hub',
  dedup_heads: null,
};
const OWNER_PREFIXES = [
  ['oauth_', 'oauth'],
  ['rate_limit_', 'http'],
];

/** Modules outside resources/ that are the store of their tables (db/ and http/ infrastructure; migrate.ts keeps schema_migrations). */
const INFRASTRUCTURE_STORES = new Set([
  'db/migrate.ts',
  'db/named-lock.ts',
  'db/instance-keys.ts',
  // Full export and restore (issue 36): copies every table's rows, by names listed at run time.
  'db/archive.ts',
  // Time partitions on PostgreSQL (issue 37): DDL on the tables the keeper is given, and the move
  // of DEFAULT's rows into a new partition (by names from the code, as archive.ts copies rows).
  'db/time-partitions.ts',
  'db/partition-keeper.ts',
  'http/quota.ts',
  'http/rate-limit.ts',
]);

/**
 * Statement builders: their statements name no table (the calling store passes its own), so a
 * statement without a table is allowed there; one that names a table is still checked. Only
 * stores and read models import them (dependency-cruiser's `statement-builders-only-from-stores`).
 */
const STATEMENT_BUILDERS = new Set(['db/page.ts', 'db/outbox-statements.ts']);

function ownerOf(table) {
  if (table in OWNERS) return OWNERS[table];
  const prefix = OWNER_PREFIXES.find(([start]) => table.startsWith(start));
  if (prefix) return prefix[1];
  throw new Error(
    `table ${table} (from the migrations) has no owner: add it to OWNERS in ${relative(ROOT, import.meta.filename)}`,
  );
}

function tablesFromMigrations() {
  const tables = new Set();
  for (const file of readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql'))) {
    const sql = readFileSync(join(MIGRATIONS, file), 'utf8');
    for (const match of sql.matchAll(
      /CREATE\s+(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([a-z_][a-z0-9_]*)/gi,
    )) {
      tables.add(match[1].toLowerCase());
    }
  }
  return tables;
}

function isStoreFile(file) {
  const name = file.split('/').at(-1);
  if (INFRASTRUCTURE_STORES.has(file)) return true;
  return /^(store|store-.+|.+-store|read-model|.+-read-model)\.ts$/.test(name);
}

function isReadModel(file) {
  return /^(read-model|.+-read-model)\.ts$/.test(file.split('/').at(-1));
}

function inFolder(file, folder) {
  return file.startsWith(`${folder}/`);
}

function typeScriptFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The text of every string or template literal (a `+` chain of them as one), with its line. */
function literals(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const textOf = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) {
      return node.head.text + node.templateSpans.map((span) => `<expr>${span.literal.text}`).join('');
    }
    if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
    if (isConcatenation(node)) return textOf(node.left) + textOf(node.right);
    return '<expr>';
  };
  const isConcatenation = (node) => ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken;
  const visit = (node) => {
    if (isConcatenation(node) || ts.isTemplateExpression(node)) {
      found.push({ text: textOf(node), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
      if (isConcatenation(node)) return; // its parts were read as one text
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const isRouteFile = (file) => /(^|[-/])routes\.ts$|-page\.ts$/.test(file);

/** Lines of the `….transaction(` calls in a file. */
function transactionCalls(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const lines = [];
  const visit = (node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'transaction'
    ) {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

const STATEMENT = /\b(SELECT\b[\s\S]*\bFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b/;
const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?([a-z_][a-z0-9_]*)/g;
const READ = /\b(?:FROM|JOIN)\s+"?([a-z_][a-z0-9_]*)/g;

/** Tables a piece of SQL writes and reads (known tables only; names built at run time cannot be resolved). */
function tablesIn(sql, known) {
  const writes = new Set();
  for (const match of sql.matchAll(WRITE)) if (known.has(match[1])) writes.add(match[1]);
  const reads = new Set();
  const withoutDeletes = sql.replace(/\bDELETE\s+FROM\b/g, 'DELETE');
  for (const match of withoutDeletes.matchAll(READ)) if (known.has(match[1])) reads.add(match[1]);
  return { writes, reads };
}

function violations() {
  const known = tablesFromMigrations();
  for (const table of known) ownerOf(table);
  const found = [];
  for (const path of typeScriptFiles(SRC)) {
    const file = relative(SRC, path).split('\\').join('/');
    if (file.startsWith('migrations/')) continue;
    if (isRouteFile(file)) {
      for (const line of transactionCalls(path)) found.push({ kind: 'transaction-in-route', file, table: '-', line });
    }
    for (const { text, line } of literals(path)) {
      if (!STATEMENT.test(text)) continue;
      const { writes, reads } = tablesIn(text, known);
      const report = (kind, table) => found.push({ kind, file, table, line });
      if (!isStoreFile(file)) {
        const tables = [...writes, ...reads];
        if (tables.length === 0 && !STATEMENT_BUILDERS.has(file)) report('sql-outside-store', '(dynamic)');
        for (const table of new Set(tables)) report('sql-outside-store', table);
      }
      for (const table of writes) {
        const owner = ownerOf(table);
        if (owner && !inFolder(file, owner)) report('write-outside-owner', table);
      }
      for (const table of reads) {
        const owner = ownerOf(table);
        if (owner && !inFolder(file, owner) && !isReadModel(file) && !writes.has(table)) {
          report('read-outside-owner', table);
        }
      }
    }
  }
  return found;
}

const keyOf = ({ kind, file, table }) => `${kind} ${file} ${table}`;

function countByKey(list) {
  const counts = new Map();
  for (const item of list) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

function readBaseline() {
  try {
    return new Map(JSON.parse(readFileSync(BASELINE, 'utf8')).map((entry) => [keyOf(entry), entry.count]));
  } catch (error) {
    if (error.code === 'ENOENT') return new Map();
    throw error;
  }
}

function writeBaseline(found) {
  const entries = [...countByKey(found)]
    .map(([key, count]) => {
      const [kind, file, table] = key.split(' ');
      return { kind, file, table, count };
    })
    .sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  writeFileSync(BASELINE, `${JSON.stringify(entries, null, 2)}\n`);
  return entries;
}

function summary(list) {
  const byKind = new Map();
  for (const { kind } of list) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  return [...byKind].map(([kind, count]) => `${kind}: ${count}`).join(', ') || 'none';
}

const found = violations();
const args = process.argv.slice(2);

if (args.includes('--update')) {
  const entries = writeBaseline(found);
  console.log(
    `SQL ownership: baseline rewritten, ${found.length} known violations (${summary(found)}) in ${entries.length} entries`,
  );
  process.exit(0);
}

const baseline = readBaseline();
const counts = countByKey(found);
const fresh = [...counts].filter(([key, count]) => count > (baseline.get(key) ?? 0)).map(([key]) => key);
const stale = [...baseline].filter(([key, count]) => (counts.get(key) ?? 0) < count).length;
const shown = args.includes('--all') ? found : found.filter((item) => fresh.includes(keyOf(item)));
for (const { kind, file, table, line } of shown) console.log(`${kind}: packages/server/src/${file}:${line} (${table})`);

if (fresh.length > 0) {
  console.log(
    `\nSQL ownership: ${fresh.length} new violation(s) above (file, kind, table). SQL belongs in the store of the ` +
      "table's resource, a transaction in its service (see CONTRIBUTING.md); if the baseline is out of date after a move, run " +
      '`node scripts/check-sql-ownership.mjs --update`.',
  );
  process.exit(1);
}
console.log(
  `SQL ownership: no new violations (${found.length} known: ${summary(found)}` +
    (stale > 0 ? `; ${stale} baseline entries fixed since, shrink it with --update` : '') +
    ')',
);
