/**
 * A list's filters as selects, each bound to one parameter of the list's view (the URL's search
 * parameters): the empty choice, `empty` ("Any status"), sets no filter.
 */
import { OptionalSelect } from './fields.tsx';

export interface ViewFilter<K extends string> {
  /** The view's parameter. */
  name: K;
  label: string;
  empty: string;
  options: readonly { value: string; label: string }[];
}

export function ViewFilters<K extends string>({
  filters,
  read,
  update,
}: {
  filters: readonly ViewFilter<K>[];
  /** A parameter's value in the view ('' when it is not set). */
  read: (name: K) => string;
  update: (changes: Record<string, string>) => void;
}) {
  return filters.map((filter) => (
    <OptionalSelect
      key={filter.name}
      label={filter.label}
      value={read(filter.name)}
      empty={filter.empty}
      options={filter.options}
      onChange={(value) => update({ [filter.name]: value })}
    />
  ));
}
