/**
 * A form that saves one thing (a name, a password, an invitation): the server's refusal above the
 * fields, the fields, the submit button (busy while the request runs, never sent twice at once)
 * and, once saved, what was saved in words.
 */
import type { FormEvent, ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { Button, ErrorNote, Note } from '../ui.tsx';
import type { FormRequest } from './form-request.ts';

export function SaveForm({
  request,
  submitLabel,
  busyLabel,
  done,
  className = 'stack',
  label,
  children,
}: {
  /** The save (its refusal is shown in place; the fields keep what was typed). */
  request: FormRequest;
  submitLabel: string;
  busyLabel: string;
  /** What was saved, shown once the save succeeded (a status note after the button). */
  done?: ReactNode;
  className?: string;
  /** The form's name, when the section's heading does not name it. */
  label?: string;
  /** The fields. */
  children: ReactNode;
}) {
  const busy = request.isPending;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) request.mutate();
  };
  return (
    <Form className={className} aria-label={label} onSubmit={submit}>
      {request.error ? <ErrorNote error={request.error} /> : null}
      {children}
      <div>
        <Button type="submit" busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
      {done && request.isSuccess ? <Note>{done}</Note> : null}
    </Form>
  );
}
