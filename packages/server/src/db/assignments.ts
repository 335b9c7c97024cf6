import type { SqlValue } from './database.ts';

/**
 * The SET clause of a partial UPDATE. A column whose new value is `undefined` is left out, so a
 * PATCH body maps onto columns one `set` at a time; `null` is a value and is written.
 */
export class Assignments {
  readonly params: SqlValue[] = [];
  private readonly columns: string[] = [];

  set(column: string, value: SqlValue | undefined): this {
    if (value !== undefined) {
      this.columns.push(`${column} = ?`);
      this.params.push(value);
    }
    return this;
  }

  get empty(): boolean {
    return this.columns.length === 0;
  }

  /** `a = ?, b = ?`, in the order the columns were set. */
  get sql(): string {
    return this.columns.join(', ');
  }
}
