/** Projects and their API keys: what other resources, the surfaces, seed, cli and tests may use. */
export {
  createApiKey,
  findKeyByLookup,
  restorePublishableKey,
  revokeKeyByLookup,
  type CreatedKey,
} from './store-keys.ts';
export {
  ALL_KEY_SCOPES,
  ALL_PUBLIC_SCOPES,
  claimProjectForTeam,
  createProject,
  findProject,
  readProjectLocales,
  setProjectDebugMode,
  slugTaken,
  touchProjectConfig,
  touchProjectTranslations,
  writeProjectLocales,
  type NewProject,
  type ProjectLocales,
  type ProjectRow,
} from './store.ts';
