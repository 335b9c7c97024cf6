/**
 * Choosing rows of a list for a bulk action (ideas, error groups, missing keys): each row's
 * checkbox, named after its row for screen readers, and the chosen set with one row in or out.
 */

export function SelectBox({
  name,
  checked,
  onChange,
}: {
  name: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${name}`}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

/** The chosen set with `item` put in (`on`) or taken out. */
export function toggled<T>(chosen: ReadonlySet<T>, item: T, on: boolean): Set<T> {
  const next = new Set(chosen);
  if (on) next.add(item);
  else next.delete(item);
  return next;
}
