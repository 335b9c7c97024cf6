import type { FormEvent } from 'react';
/**
 * What a form needs of the request it sends (a useMutation result): the last refusal, whether it
 * runs, whether it succeeded, and how to send it. The form widgets take the request whole, so a
 * screen does not wire its error, busy state and submit by hand each time.
 */
export interface FormRequest {
  error: unknown;
  isPending: boolean;
  isSuccess: boolean;
  mutate: () => void;
}

/**
 * A field's onChange that keeps the new value and also forgets what the edit made stale: the last
 * answer of a save (`save.reset`), a note, an error the form said itself.
 */
export function setAnd<T>(set: (value: T) => void, forget: () => unknown): (value: T) => void {
  return (value) => {
    set(value);
    forget();
  };
}

/**
 * A form's submit handler: the browser's own submit (a page load) prevented, then `send`, once the
 * form's own `check` passes (a choice that may not be empty, a required text).
 */
export function submitting(send: () => void, check: () => boolean = () => true): (event: FormEvent) => void {
  return (event) => {
    event.preventDefault();
    if (check()) send();
  };
}
