/**
 * The text fields of a form kept together: each field's label, help and input type written once
 * (a FieldSpec), its value in one record, and `bind` to hand a `<Field>` all it needs in one
 * spread, so a form lists its fields instead of wiring value, change and error by hand each time.
 */
import { useState } from 'react';

/** What a text field shows beside its value. */
export interface FieldSpec {
  label: string;
  description?: string;
  /** The input's type: `number`, `url`, `datetime-local`…; text if left out. */
  type?: string;
  isRequired?: boolean;
  inputMode?: 'numeric';
  /** The name the API gives this field in its errors, where it differs from the form's. */
  errorKey?: string;
}

/** The props `bind` gives a `<Field>`: the spec, the value, its change and the API's word on it. */
export interface BoundField extends Omit<FieldSpec, 'errorKey'> {
  value: string;
  onChange: (value: string) => void;
  serverError: string | undefined;
}

export interface FormFields<K extends string> {
  /** The fields' names in the specs' order, for a form that draws them all in a row. */
  names: K[];
  values: Record<K, string>;
  set: (name: K, value: string) => void;
  /** After an add, so the form is ready for the next one: `values` set, or all back to the first. */
  reset: (values?: Partial<Record<K, string>>) => void;
  /** A binder for this render: `bind(errors)('name')` gives that field's props with its error. */
  bind: (errors: Record<string, string | undefined>) => (name: K) => BoundField;
}

/**
 * The binder of fields whose values a form keeps itself (in a draft with other kinds of values):
 * `bindFields(specs, values, set, errors)('name')` gives that field's props.
 */
export function bindFields<K extends string>(
  specs: Record<K, FieldSpec>,
  values: NoInfer<Record<K, string>>,
  set: (name: NoInfer<K>) => (value: string) => void,
  errors: Record<string, string | undefined>,
): (name: K) => BoundField {
  return (name) => {
    const { errorKey = name, ...spec } = specs[name];
    return { ...spec, value: values[name], onChange: set(name), serverError: errors[errorKey] };
  };
}

/**
 * The values of the fields `specs` describes, starting at `initial`; `onEdit` runs on every
 * change (to forget the last answer of a save, say).
 */
export function useFormFields<K extends string>(
  specs: Record<K, FieldSpec>,
  initial: Record<K, string>,
  onEdit?: () => void,
): FormFields<K> {
  const [values, setValues] = useState(initial);
  const set = (name: K, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    onEdit?.();
  };
  const bind = (errors: Record<string, string | undefined>) =>
    bindFields(specs, values, (name) => (value) => set(name, value), errors);
  const reset = (changes: Partial<Record<K, string>> = initial) => setValues((current) => ({ ...current, ...changes }));
  return { names: Object.keys(specs) as K[], values, set, reset, bind };
}
