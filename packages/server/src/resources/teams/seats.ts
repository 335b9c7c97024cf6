/**
 * Seats. An owner has a seat limit over every team they own (their own setting, else
 * DEFAULT_TEAM_SEATS). What counts for an owner: the e-mail address of every member of those
 * teams (the owner included) and of every pending invite to them, each address once.
 *
 * - Inviting an address that does not count yet takes a seat: refused at the limit.
 * - Accepting an invite needs an extra seat unless the signed-in account's e-mail is VERIFIED and
 *   already counts for that owner (a membership of another of their teams, or a pending invite).
 *   At the limit, an invite that needs an extra seat cannot be accepted. A typed, unverified
 *   address never counts, whatever it is.
 */
import type { Queryable } from '../../db/database.ts';
import { lockNamed } from '../../db/named-lock.ts';

export interface Seats {
  used: number;
  limit: number;
}

/**
 * Serialises seat decisions for one owner (invites, acceptances, the owner's seat limit) until
 * the transaction ends: a named lock (a row lock on PostgreSQL; SQLite transactions already run
 * one at a time). Take it first, before reading the seats.
 */
export async function lockOwnerSeats(tx: Queryable, ownerId: string): Promise<void> {
  await lockNamed(tx, `seats:${ownerId}`);
}
