/** A board's SSO signing secret: derived from the server's key and the board's secret id, never stored. */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { serverKey } from '../../db/instance-keys.ts';
import { deriveSecret } from '../../kernel/derived-secrets.ts';

/** The board's session cookie (its token; the database keeps only the hash). */
export const BOARD_SESSION_COOKIE = 'signpost_board';

/** Undefined until the team makes one (management API or CLI). */
export async function boardSsoSecret(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
  secretId: string | null,
): Promise<string | undefined> {
  if (!secretId) return undefined;
  return deriveSecret(await serverKey(db, config.secretKey), 'board-sso', projectId, secretId);
}
