/**
 * A table of rows as every list screen draws one: a scrolling wrapper, a caption or a label for
 * screen readers, and a header row of column headings; the screen gives only its rows. A column
 * whose heading is for screen readers only (a column of buttons) is `{ label, hidden: true }`;
 * `false` or `null` in `columns` leaves a column out (one only some roles see).
 */
import type { ReactNode } from 'react';

interface ColumnSpec {
  label: ReactNode;
  /** Read by screen readers, not shown. */
  hidden?: boolean;
  className?: string;
  /** The heading's language (a locale's code as a heading). */
  lang?: string;
}

export type Column = string | ColumnSpec;

export function DataTable({
  columns,
  children,
  className,
  caption,
  captionClassName = 'visually-hidden',
  label,
  labelledBy,
  wrapClassName = 'table-wrap',
}: {
  columns: readonly (Column | false | null)[];
  /** The rows (`<tr>`s). */
  children: ReactNode;
  /** Classes besides `table`. */
  className?: string;
  caption?: ReactNode;
  /** `muted` shows the caption; by default it is read, not seen. */
  captionClassName?: string;
  /** The table's name when it has no caption. */
  label?: string;
  labelledBy?: string;
  /** The scrolling wrapper's class; null: no wrapper (the page scrolls). */
  wrapClassName?: string | null;
}) {
  const table = (
    <table className={className ? `table ${className}` : 'table'} aria-label={label} aria-labelledby={labelledBy}>
      {caption !== undefined ? <caption className={captionClassName}>{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((column, index) => {
            if (column === false || column === null) return null;
            const spec: ColumnSpec = typeof column === 'string' ? { label: column } : column;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; a heading may repeat or be an element.
              <th key={index} scope="col" className={spec.className} lang={spec.lang}>
                {spec.hidden ? <span className="visually-hidden">{spec.label}</span> : spec.label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return wrapClassName === null ? table : <div className={wrapClassName}>{table}</div>;
}

/** The heading of a column of buttons: read by screen readers, not shown. */
export const ACTIONS: Column = { label: 'Actions', hidden: true };
