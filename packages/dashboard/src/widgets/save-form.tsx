/**
 * A form that saves one thing (a name, a password, an invitation): the server's refusal above the
 * fields, the fields, the submit button (busy while the request runs, never sent twice at once)
 * and, once saved, what was saved in words.
 */
import type { FormEvent, ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { Button, ErrorNote, Note } from '../ui.tsx';

export function SaveForm({
  error,
  busy,
  submitLabel,
  busyLabel,
  onSubmit,
  done,
  className = 'stack',
  label,
  children,
}: {
  /** The last refusal (shown in place; the fields keep what was typed). */
  error: unknown;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: () => void;
  /** What was saved, once it was (a status note after the button). */
  done?: ReactNode;
  className?: string;
  /** The form's name, when the section's heading does not name it. */
  label?: string;
  /** The fields. */
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Form className={className} aria-label={label} onSubmit={submit}>
      {error ? <ErrorNote error={error} /> : null}
      {children}
      <div>
        <Button type="submit" busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
      {done ? <Note>{done}</Note> : null}
    </Form>
  );
}
