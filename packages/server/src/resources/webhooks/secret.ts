/**
 * An endpoint's signing secret. It must be usable again at every delivery (to sign) and shown
 * once at creation and at rotation, so it has to be recoverable; rather than store it (in the
 * clear, or encrypted with a key that would sit next to it), it is derived, as a board's SSO
 * secret is (kernel/derived-secrets.ts): an HMAC of the server's key over the purpose, the project
 * and a random id that rotation replaces. The database keeps only that id and a short hint, so a
 * copy of the webhook tables alone signs nothing. Changing SECRET_KEY changes every secret.
 * Never logged.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** `whsec_` and the base64 of 32 bytes: the Standard Webhooks secret format. */
export function webhookSecret(serverKey: string, projectId: string, secretId: string): string {
  const bytes = createHmac('sha256', serverKey).update(`webhook\0${projectId}\0${secretId}`).digest();
  return `whsec_${bytes.toString('base64')}`;
}

export function newSecretId(): string {
  return randomBytes(16).toString('base64url');
}

/** What a settings page may show of a secret: its last four characters. */
export function secretHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}
