/**
 * The real database, with a count of the statements run through it: for tests that hold the
 * server to a fixed number of statements per request. Nothing is changed on the way through.
 */
import type { Database, Queryable } from '../../src/db/database.ts';

export interface StatementCount {
  statements: number;
}

export function countStatements(db: Database): { db: Database; count: StatementCount } {
  const count: StatementCount = { statements: 0 };
  const counted = (queryable: Queryable): Queryable => ({
    all: (sql, params) => {
      count.statements++;
      return queryable.all(sql, params);
    },
    get: (sql, params) => {
      count.statements++;
      return queryable.get(sql, params);
    },
    run: (sql, params) => {
      count.statements++;
      return queryable.run(sql, params);
    },
  });
  const wrapped: Database = {
    dialect: db.dialect,
    ...counted(db),
    transaction: (fn, options) => db.transaction((tx) => fn(counted(tx)), options),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
    ...(db.changeMarker ? { changeMarker: () => db.changeMarker!() } : {}),
  };
  return { db: wrapped, count };
}
