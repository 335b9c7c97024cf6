/**
 * A destructive action behind a confirmation dialog (React Aria's modal: focus moves into it,
 * Escape cancels, focus returns to the button). The dialog stays open while the action runs and
 * shows the server's refusal in place; it closes only when the action succeeded.
 */
import { type ReactNode, useState } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button, ErrorNote } from '../ui.tsx';

export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel = label,
  onConfirm,
  variant = 'quiet',
}: {
  /** The button that opens the dialog. */
  label: string;
  /** The dialog's heading, a question. */
  title: string;
  /** What will happen, in words. */
  children: ReactNode;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown>;
  variant?: 'primary' | 'secondary' | 'quiet' | 'danger';
}) {
  const [open, setOpen] = useState(false);
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
      <ModalOverlay className="modal-overlay" isDismissable={!busy}>
        <Modal className="modal">
          <Dialog role="alertdialog" className="dialog stack">
            {({ close }) => (
              <>
                <Heading slot="title">{title}</Heading>
                <div>{children}</div>
                {error ? <ErrorNote error={error} /> : null}
                <div className="row">
                  <Button variant="danger" onPress={confirm} busy={busy}>
                    {busy ? 'Working…' : confirmLabel}
                  </Button>
                  <Button variant="quiet" onPress={close} isDisabled={busy}>
                    Cancel
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
