/**
 * Form controls beyond the text field: a native select and checkbox with their labels (native
 * controls are the most keyboard- and screen-reader-friendly there are), and a multi-line field.
 */
import { type ReactNode, useId } from 'react';

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
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={description || error ? `${id}-help` : undefined}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {description || error ? (
        <span id={`${id}-help`} className={error ? 'field-error' : 'field-help'}>
          {error ?? description}
        </span>
      ) : null}
    </div>
  );
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
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={description || error ? `${id}-help` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {description || error ? (
        <span id={`${id}-help`} className={error ? 'field-error' : 'field-help'}>
          {error ?? description}
        </span>
      ) : null}
    </div>
  );
}
