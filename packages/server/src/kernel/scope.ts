import type { KeyEnvironment } from './api-keys.ts';

/** Where a key's reads and writes land: one project, one key environment. */
export interface Scope {
  projectId: string;
  environment: KeyEnvironment;
}
