/**
 * A destructive action behind a confirmation dialog (React Aria's modal: focus moves into it,
 * Escape cancels, focus returns to the button). The dialog stays open while the action runs and
 * shows the server's refusal in place; it closes only when the action succeeded.
 */
import { type ReactNode, useState } from 'react';
import { DialogTrigger, Heading } from 'react-aria-components';
import { Button, ErrorNote } from '../ui.tsx';
import { ModalDialog } from './modal.tsx';

export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel = label,
  busyLabel = 'Working…',
  confirmDisabled = false,
  onConfirm,
  variant = 'quiet',
  open: openFromOwner,
  onOpenChange,
  choice = false,
}: {
  /** The button that opens the dialog. */
  label: string;
  /** The dialog's heading, a question. */
  title: string;
  /** What will happen, in words. */
  children: ReactNode;
  confirmLabel?: string;
  busyLabel?: string;
  /** Nothing to confirm yet (a choice still to make in the dialog). */
  confirmDisabled?: boolean;
  onConfirm: () => Promise<unknown>;
  variant?: 'primary' | 'secondary' | 'quiet' | 'danger';
  /** Opened by its owner too (a keyboard shortcut), not only by the button. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /**
   * The dialog asks for a choice (a search, a pick) before the confirmation: a plain dialog, not
   * an alert, its parts spaced as a stack.
   */
  choice?: boolean;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = openFromOwner ?? ownOpen;
  const setOpen = (next: boolean) => {
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
    >
      <Button variant={variant}>{label}</Button>
      <ModalDialog dismissable={!busy} role={choice ? 'dialog' : 'alertdialog'}>
        {({ close }) => (
          <>
            <Heading slot="title">{title}</Heading>
            <div className={choice ? 'stack' : undefined}>{children}</div>
            {error ? <ErrorNote error={error} /> : null}
            <div className="row">
              <Button variant="danger" onPress={confirm} busy={busy} isDisabled={confirmDisabled}>
                {busy ? busyLabel : confirmLabel}
              </Button>
              <Button variant="quiet" onPress={close} isDisabled={busy}>
                Cancel
              </Button>
            </div>
          </>
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}
