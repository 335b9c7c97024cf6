/**
 * node-postgres, loaded when a PostgreSQL database is first opened: a server on SQLite never
 * needs its modules (lazy-module.ts says why that matters).
 */
import type pg from 'pg';
import { lazyModule } from '../kernel/lazy-module.ts';

const load = lazyModule<typeof pg>('pg', import.meta.url);
let configured = false;

export function pgDriver(): typeof pg {
  const driver = load();
  if (!configured) {
    // COUNT(*) and BIGINT columns come back as strings by default; every count here fits a double.
    driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number.parseInt(value, 10));
    configured = true;
  }
  return driver;
}
