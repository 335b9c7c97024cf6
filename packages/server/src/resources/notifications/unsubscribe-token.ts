/**
 * The token of a follower e-mail's unsubscribe link: `<user id>.<feature id>.<MAC>`, the MAC an
 * HMAC over (project, user, feature) under the server key's `unsubscribe` purpose
 * (kernel/derived-secrets.ts). Nothing is stored; the project comes from the board's address,
 * so a token works only on the board it was made for. Compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { deriveSecret } from '../../kernel/derived-secrets.ts';

const ID = /^[A-Za-z0-9_-]{1,100}$/;

function mac(serverKey: string, projectId: string, userId: string, featureId: string): string {
  return deriveSecret(serverKey, 'unsubscribe', projectId, `${userId}\0${featureId}`);
}

export function unsubscribeToken(serverKey: string, projectId: string, userId: string, featureId: string): string {
  return `${userId}.${featureId}.${mac(serverKey, projectId, userId, featureId)}`;
}

/** The user and idea the token names, when it was made by this server for this project. */
export function readUnsubscribeToken(
  serverKey: string,
  projectId: string,
  token: string,
): { userId: string; featureId: string } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [userId, featureId, given] = parts as [string, string, string];
  if (!ID.test(userId) || !ID.test(featureId)) return undefined;
  const expected = Buffer.from(mac(serverKey, projectId, userId, featureId));
  const presented = Buffer.from(given);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  return { userId, featureId };
}
