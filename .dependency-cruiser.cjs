// The import rules of issue 12 (see CONTRIBUTING.md, "Structure checks"). `npm run check:structure`
// runs them against packages/*/src; violations that existed when a rule arrived are listed in
// .dependency-cruiser-known-violations.json and tolerated until the code moves (regenerate it with
// `npm run check:structure:baseline` once a move has removed some).
const SERVER = '^packages/server/src/';
const SURFACES = '(public-api|management|mcp|oauth|board|otlp|ofrep)';
// store.ts, store-<part>.ts, <part>-store.ts (written without nested quantifiers: depcruise rejects those)
const STORE_FILE = '(/|/[^/]*-)store(\\.ts|-[^/]+\\.ts)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'dashboard-never-imports-server',
      severity: 'error',
      comment:
        'The dashboard is a browser app over the management API: it knows the server only through the ' +
        'generated API types, never its code (the server in turn only reads the built dist folder).',
      from: { path: '^packages/dashboard/' },
      to: { path: '^packages/(server|node_modules/@signpost/server)/|(^|/)node_modules/@signpost/server/' },
    },
    {
      name: 'server-never-imports-dashboard',
      severity: 'error',
      comment:
        'The server serves the dashboard build from disk (src/dashboard/plugin.ts) and imports none of its code.',
      from: { path: SERVER },
      to: { path: '^packages/dashboard/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order fragile and modules impossible to understand alone.',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-imports-only-kernel',
      severity: 'error',
      comment: 'kernel/ sits below everything: it imports nothing of the server but itself.',
      from: { path: `${SERVER}kernel/` },
      to: { path: SERVER, pathNot: `${SERVER}kernel/` },
    },
    {
      name: 'db-imports-only-kernel',
      severity: 'error',
      comment: 'db/ (the Database interface, adapters, migrations runner) imports only kernel/.',
      from: { path: `${SERVER}db/` },
      to: { path: SERVER, pathNot: `${SERVER}(db|kernel)/` },
    },
    {
      name: 'http-never-imports-resources-or-surfaces',
      severity: 'error',
      comment:
        'http/ is the plumbing every surface shares; it never reaches up into routing, resources or surfaces ' +
        '(features/ is the pre-issue-12 home of resources and counts as one until it is gone).',
      from: { path: `${SERVER}http/` },
      to: { path: `${SERVER}(routing|resources|features|${SURFACES})/` },
    },
    {
      name: 'resource-imports-resource-through-index',
      severity: 'error',
      comment: 'Another resource is used through its index.ts only, never its store, routes or internals.',
      from: { path: `${SERVER}resources/([^/]+)/` },
      to: {
        path: `${SERVER}resources/[^/]+/`,
        pathNot: [`${SERVER}resources/$1/`, `${SERVER}resources/[^/]+/index\\.ts$`],
      },
    },
    {
      name: 'store-only-from-own-resource',
      severity: 'error',
      comment: "A resource's store runs the SQL on its tables; only its own folder calls it.",
      from: { path: `${SERVER}resources/([^/]+)/` },
      to: { path: `${SERVER}resources/[^/]+${STORE_FILE}`, pathNot: `${SERVER}resources/$1/` },
    },
    {
      name: 'store-not-from-outside-resources',
      severity: 'error',
      comment: "A resource's store is called only from its own folder (tests are not checked).",
      from: { path: '^packages/', pathNot: `${SERVER}resources/` },
      to: { path: `${SERVER}resources/[^/]+${STORE_FILE}` },
    },
    {
      name: 'statement-builders-only-from-stores',
      severity: 'error',
      comment:
        'db/page.ts and db/outbox-statements.ts run statements on the table their caller names: only stores and read models, ' +
        'which own or read those tables, may call it.',
      from: { path: '^packages/server/src/', pathNot: ['/store[^/]*\\.ts$', '-store\\.ts$', 'read-model\\.ts$'] },
      to: { path: `${SERVER}db/(page|outbox-statements)\\.ts$` },
    },
    {
      name: 'resources-import-no-surface',
      severity: 'error',
      comment:
        'The surfaces mount the resources, never the other way round: what a route, page or tool needs of ' +
        'its surface (route contexts, access checks, the board page kit) lives in routing/, below the resources.',
      from: { path: `${SERVER}resources/` },
      to: { path: `${SERVER}${SURFACES}/` },
    },
    {
      name: 'routing-imports-no-surface-or-resource',
      severity: 'error',
      comment:
        'routing/ sits between http/ and the resources: it imports neither a surface nor a resource. A row type ' +
        "of a resource's index.ts may be imported as a type only (ProjectRow, BoardSettings); what the checks " +
        'must read (team memberships, a project) the surface hands in.',
      from: { path: `${SERVER}routing/` },
      to: {
        path: `${SERVER}(resources|${SURFACES})/`,
        pathNot: `${SERVER}resources/[^/]+/index\\.ts$`,
      },
    },
    {
      name: 'routing-imports-resource-types-only',
      severity: 'error',
      comment: "routing/ may name a resource's row type (import type from its index.ts), never call its code.",
      from: { path: `${SERVER}routing/` },
      to: { path: `${SERVER}resources/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'packages-never-import-server',
      severity: 'error',
      comment: 'The SDK packages, docs-mcp and the CLI ship without the server; their src/ must not import it.',
      from: { path: '^packages/(sdk-core|error-tracker|feature-reporter|site-manager|i18n|logger|docs-mcp|cli)/src/' },
      to: { path: '^packages/server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '^packages/docs-mcp/src/generated/'] },
    includeOnly: '^packages/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'packages/server/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
