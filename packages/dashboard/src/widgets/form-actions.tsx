/**
 * The end of a form: the server's refusal, a note (what was saved), the submit button (busy while
 * the request runs) and, while editing, Cancel.
 */
import type { ReactNode } from 'react';
import { Button, ErrorNote, Note } from '../ui.tsx';
import type { FormRequest } from './form-request.ts';

export function FormActions({
  request,
  submitLabel,
  busyLabel = submitLabel,
  done,
  note,
  onCancel,
}: {
  /** The form's request (its refusal is shown in place). */
  request: Pick<FormRequest, 'error' | 'isPending' | 'isSuccess'>;
  submitLabel: string;
  /** The button's text while the request runs. */
  busyLabel?: string;
  /** What was saved, once the request succeeded. */
  done?: string;
  /** A note of the form's own (what a save or an import did). */
  note?: ReactNode;
  /** Shows Cancel (an edit form). */
  onCancel?: (() => void) | undefined;
}) {
  const shown = note || (done && request.isSuccess ? done : null);
  return (
    <>
      {request.error ? <ErrorNote error={request.error} /> : null}
      {shown ? <Note>{shown}</Note> : null}
      <div className="row">
        <Button type="submit" busy={request.isPending}>
          {request.isPending ? busyLabel : submitLabel}
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
