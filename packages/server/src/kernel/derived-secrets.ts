/**
 * Secrets Signpost must be able to show or use again (a board's SSO signing secret) are not
 * stored: each is derived from the server's key, its purpose, its project and a random id that
 * rotation replaces. The database keeps only the id and a short hint.
 */
import { createHmac } from 'node:crypto';

/** `board-sso`: a board's SSO signing secret; `unsubscribe`: the MAC of a follower e-mail's unsubscribe link. */
export type SecretPurpose = 'board-sso' | 'unsubscribe';

/** 43 characters of base64url (256 bits). */
export function deriveSecret(serverKey: string, purpose: SecretPurpose, projectId: string, secretId: string): string {
  return createHmac('sha256', serverKey).update(`${purpose}\0${projectId}\0${secretId}`).digest('base64url');
}

/** What a settings page may show of a secret: its last four characters. */
export function secretHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}
