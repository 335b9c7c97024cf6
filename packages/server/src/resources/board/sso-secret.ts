/**
 * A board's SSO signing secret: derived from the server's key, the project and a random id
 * (kernel/derived-secrets.ts), so nothing secret is stored. Rotating picks a new id; the old
 * secret stops working at once.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { serverKey } from '../../db/instance-keys.ts';
import { deriveSecret, secretHint } from '../../kernel/derived-secrets.ts';
import { recordAudit } from '../audit/index.ts';
import { readBoard, setSsoSecret } from './store.ts';

/** The board's session cookie (its token; the database keeps only the hash). */
export const BOARD_SESSION_COOKIE = 'signpost_board';

/** The project's current board SSO secret; undefined when none was ever made. */
export async function boardSsoSecret(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
): Promise<string | undefined> {
  const { ssoSecretId } = await readBoard(db, projectId);
  if (!ssoSecretId) return undefined;
  return deriveSecret(await serverKey(db, config.secretKey), 'board-sso', projectId, ssoSecretId);
}

/** Makes a new secret (replacing any earlier one) and returns it: the only time it is shown. */
export async function rotateSsoSecret(
  db: Database,
  config: Pick<Config, 'secretKey'>,
  projectId: string,
): Promise<{ secret: string; hint: string }> {
  const secretId = randomBytes(16).toString('base64url');
  const secret = deriveSecret(await serverKey(db, config.secretKey), 'board-sso', projectId, secretId);
  const hint = secretHint(secret);
  await db.transaction(async (tx) => {
    await setSsoSecret(tx, projectId, secretId, hint);
    // Who rotated it and when; the secret, its id and hint never reach the log.
    await recordAudit(tx, { projectId, action: 'board.sso_secret_rotated', target: { type: 'board', id: projectId } });
  });
  return { secret, hint };
}
