/**
 * The form of the signed-out screens (sign in, sign up, forgot and reset password): a narrow card
 * with the screen's one heading, an optional introduction, the API's refusal in words above the
 * fields, the fields, the submit button (busy while the request runs), and what follows the form.
 */
import { type FormEvent, type ReactNode, useId } from 'react';
import { Form } from 'react-aria-components';
import { Button, ErrorNote } from '../ui.tsx';

export function AuthForm({
  title,
  intro,
  error,
  busy,
  submitLabel,
  busyLabel,
  onSubmit,
  children,
  after,
}: {
  title: string;
  intro?: ReactNode;
  /** The last refusal (shown in place; the fields keep what was typed). */
  error?: unknown;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Runs on submit, never twice at once. */
  onSubmit: () => void;
  /** The fields. */
  children: ReactNode;
  /** Below the form: other ways in, links to the other screens. */
  after?: ReactNode;
}) {
  const titleId = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <section className="card narrow" aria-labelledby={titleId}>
      <h1 id={titleId}>{title}</h1>
      {intro}
      <Form onSubmit={submit} className="stack">
        {error ? <ErrorNote error={error} /> : null}
        {children}
        <Button type="submit" busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </Form>
      {after}
    </section>
  );
}
