/**
 * The end of a form: the server's refusal, an optional note (what was saved), the submit button
 * and, while editing, Cancel.
 */
import type { ReactNode } from 'react';
import { Button, ErrorNote, Note } from '../ui.tsx';

export function FormActions({
  error,
  note,
  busy,
  submit,
  onCancel,
}: {
  error: unknown;
  note?: ReactNode;
  busy: boolean;
  /** The submit button's text. */
  submit: ReactNode;
  /** Shows Cancel (an edit form). */
  onCancel?: (() => void) | undefined;
}) {
  return (
    <>
      {error ? <ErrorNote error={error} /> : null}
      {note ? <Note>{note}</Note> : null}
      <div className="row">
        <Button type="submit" busy={busy}>
          {submit}
        </Button>
        {onCancel ? (
          <Button variant="quiet" onPress={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </>
  );
}
