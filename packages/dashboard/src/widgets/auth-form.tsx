/**
 * The form of the signed-out screens (sign in, sign up, forgot and reset password): a narrow card
 * with the screen's one heading, an optional introduction, the API's refusal in words above the
 * fields, the fields, the submit button (busy while the request runs), and what follows the form.
 */
import { type FormEvent, type ReactNode, useId } from 'react';
import { Form } from 'react-aria-components';
import { Button, ErrorNote } from '../ui.tsx';
import type { FormRequest } from './form-request.ts';

export function AuthForm({
  title,
  intro,
  request,
  submitLabel,
  busyLabel,
  children,
  after,
}: {
  title: string;
  intro?: ReactNode;
  /** The request the form sends, never twice at once (its refusal is shown in place; the fields keep what was typed). */
  request: FormRequest;
  submitLabel: string;
  busyLabel: string;
  /** The fields. */
  children: ReactNode;
  /** Below the form: other ways in, links to the other screens. */
  after?: ReactNode;
}) {
  const titleId = useId();
  const busy = request.isPending;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) request.mutate();
  };
  return (
    <section className="card narrow" aria-labelledby={titleId}>
      <h1 id={titleId}>{title}</h1>
      {intro}
      <Form onSubmit={submit} className="stack">
        {request.error ? <ErrorNote error={request.error} /> : null}
        {children}
        <Button type="submit" busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </Form>
      {after}
    </section>
  );
}
