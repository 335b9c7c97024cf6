/**
 * React Aria's modal as the dashboard draws it: the dimmed overlay, the box and the dialog in it
 * (focus moves inside, Escape closes, focus returns to what opened it). Inside a DialogTrigger it
 * opens with the trigger; elsewhere its owner passes `isOpen` and `onOpenChange`.
 */
import type { ReactNode } from 'react';
import { Dialog, Modal, ModalOverlay } from 'react-aria-components';

export function ModalDialog({
  children,
  dismissable = true,
  role,
  className,
  isOpen,
  onOpenChange,
}: {
  /** The dialog's content, given the function that closes it. */
  children: (dialog: { close: () => void }) => ReactNode;
  /** Closed by a click outside (not while an action runs). */
  dismissable?: boolean;
  role?: 'dialog' | 'alertdialog';
  /** Classes of the box besides `modal`. */
  className?: string;
  isOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const owned = isOpen === undefined ? {} : { isOpen, ...(onOpenChange ? { onOpenChange } : {}) };
  return (
    <ModalOverlay className="modal-overlay" isDismissable={dismissable} {...owned}>
      <Modal className={className ? `modal ${className}` : 'modal'}>
        <Dialog role={role} className="dialog stack">
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
