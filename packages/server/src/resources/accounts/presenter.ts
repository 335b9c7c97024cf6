/** An account as the management API shows it. */
import { isTrue } from '../../db/database.ts';
import type { AccountRow } from './store.ts';

export function presentAccount(row: AccountRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    verified: isTrue(row.email_verified),
    admin: isTrue(row.is_admin),
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
  };
}
