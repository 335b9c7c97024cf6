import type { KeyEnvironment } from '../../kernel/api-keys.ts';

/** Who calls the MCP server: an API key, or an OAuth grant a user made on the consent page. */
export interface McpPrincipal {
  kind: 'api-key' | 'oauth';
  /** The one project these credentials reach. */
  projectId: string;
  /** Data environment of writes: a test key's, else live. */
  environment: KeyEnvironment;
  scopes: ReadonlySet<string>;
  /** A publishable API key (embedded in a page): it may not change existing items. */
  publishable?: boolean;
  /** Stable id for per-caller limits: the API key id or the OAuth grant id. */
  callerId: string;
  /** The account that made an OAuth grant: its team notes are written as that account. */
  accountId?: string;
}
