/** Human-readable output: aligned tables and `label: value` blocks; `--json` prints the API's JSON as is. */

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export type Cell = string | number | boolean | null | undefined;

function text(cell: Cell): string {
  if (cell === null || cell === undefined || cell === '') return '-';
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  return String(cell).replace(/\s+/g, ' ');
}

/** A table with a header row; long cells are cut to keep rows on one line. */
export function printTable(columns: string[], rows: Cell[][], empty = 'Nothing to show.'): void {
  if (rows.length === 0) {
    process.stdout.write(`${empty}\n`);
    return;
  }
  const cells = rows.map((row) =>
    row.map((cell) => {
      const value = text(cell);
      return value.length > 60 ? `${value.slice(0, 57)}...` : value;
    }),
  );
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
  process.stdout.write(`${[line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n')}\n`);
}

export function printFields(fields: Array<[string, Cell]>): void {
  const width = Math.max(...fields.map(([label]) => label.length));
  process.stdout.write(
    `${fields.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${text(value)}`).join('\n')}\n`,
  );
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `shown of total` paging line, printed under a table when there are more rows. */
export function printPaging(shown: number, total: number, offset: number): void {
  if (total > shown) say(`(${offset + 1}-${offset + shown} of ${total}; use --limit and --offset for more)`);
}
