/** E-mail addresses are compared and stored lower-cased and trimmed (accounts, invites). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
