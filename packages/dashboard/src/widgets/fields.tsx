/**
 * Form controls beyond the text field: a native select and checkbox with their labels (native
 * controls are the most keyboard- and screen-reader-friendly there are), and a multi-line field.
 */
import { type ReactNode, useId, useState } from 'react';

/** What ties a native control to its label and to the help or error under it. */
interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled native control with its help, or its error in place of the help. */
export function NativeField({
  label,
  description,
  error,
  children,
}: {
  label: string;
  description?: string | undefined;
  error: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': description || error ? `${id}-help` : undefined,
      })}
      {description || error ? (
        <span id={`${id}-help`} className={error ? 'field-error' : 'field-help'}>
          {error ?? description}
        </span>
      ) : null}
    </div>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  description,
  error,
  name,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  description?: string;
  error?: string | undefined;
  name?: string;
}) {
  return (
    <NativeField label={label} description={description} error={error}>
      {(control) => (
        <select {...control} name={name} value={value} onChange={(event) => onChange(event.target.value as T)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </NativeField>
  );
}

/**
 * A select whose first choice, the empty value, means none: no filter ("Any status"), or nothing
 * chosen yet ("Choose a tag"). `empty` is that choice's label.
 */
export function OptionalSelect<T extends string>({
  empty,
  options,
  ...select
}: {
  label: string;
  value: T | '';
  empty: string;
  options: readonly { value: T; label: string }[];
  onChange: (value: T | '') => void;
  description?: string;
  error?: string | undefined;
  name?: string;
}) {
  return <SelectField<T | ''> {...select} options={[{ value: '', label: empty }, ...options]} />;
}

export function CheckboxField({
  label,
  checked,
  onChange,
  description,
  name,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: string;
  name?: string;
}) {
  const id = useId();
  return (
    <div className="checkbox">
      <input
        id={id}
        type="checkbox"
        name={name}
        checked={checked}
        aria-describedby={description ? `${id}-help` : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {description ? (
        <span id={`${id}-help`} className="field-help">
          {description}
        </span>
      ) : null}
    </div>
  );
}

/** What useRequiredSelection gives: the choice, and the message of an empty one. */
export interface RequiredSelection<T extends string> {
  selected: T[];
  setSelected: (selected: T[]) => void;
  error: string | undefined;
  /** Before submitting: whether the form may go; otherwise the message shows under the group. */
  check: () => boolean;
}

/**
 * The selection of a CheckboxGroup that may not be empty: `check()` before submitting tells
 * whether the form may go, and otherwise puts `message` under the group (the server would refuse
 * an empty list too, in less friendly words).
 */
export function useRequiredSelection<T extends string>(initial: readonly T[], message: string): RequiredSelection<T> {
  const [selected, setSelected] = useState<T[]>([...initial]);
  const [error, setError] = useState<string>();
  const check = () => {
    const ok = selected.length > 0;
    setError(ok ? undefined : message);
    return ok;
  };
  return { selected, setSelected, error, check };
}

/**
 * A set of checkboxes under a legend, each a code name with its description (a key's scopes, a
 * webhook's events), kept in the options' order, with one error for the whole set: the empty
 * choice's, else the server's.
 */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  selection,
  serverError,
}: {
  legend: string;
  options: readonly { value: T; description: string }[];
  selection: RequiredSelection<T>;
  serverError?: string | undefined;
}) {
  const errorId = useId();
  const { selected, setSelected } = selection;
  const error = selection.error ?? serverError;
  const toggle = (value: T, on: boolean) =>
    setSelected(
      on
        ? options.map((option) => option.value).filter((v) => v === value || selected.includes(v))
        : selected.filter((v) => v !== value),
    );
  return (
    <fieldset className="scope-list" aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      {options.map(({ value, description }) => (
        <CheckboxField
          key={value}
          label={<code>{value}</code>}
          checked={selected.includes(value)}
          onChange={(on) => toggle(value, on)}
          description={description}
        />
      ))}
      {error ? (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}

export function TextAreaField({
  label,
  value,
  onChange,
  description,
  error,
  rows = 4,
  name,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  description?: string;
  error?: string | undefined;
  rows?: number;
  name?: string;
}) {
  return (
    <NativeField label={label} description={description} error={error}>
      {(control) => (
        <textarea
          {...control}
          name={name}
          rows={rows}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </NativeField>
  );
}
