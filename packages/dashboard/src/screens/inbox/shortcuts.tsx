/** The "?" dialog: the inbox's keyboard shortcuts (React Aria's modal: focus inside, Escape closes). */
import { Heading } from 'react-aria-components';
import { Button } from '../../ui.tsx';
import { SHORTCUTS } from './keyboard.ts';
import { ModalDialog } from '../../widgets/modal.tsx';

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <ModalDialog isOpen={open} onOpenChange={onOpenChange}>
      {({ close }) => (
        <>
          <Heading slot="title">Keyboard shortcuts</Heading>
          <p className="muted">Not while typing in a field. The list and the open idea follow each key.</p>
          <dl className="inbox-shortcuts">
            {SHORTCUTS.map((shortcut) => (
              <div key={shortcut.what}>
                <dt>
                  {shortcut.keys.map((key, i) => (
                    <span key={key}>
                      {i > 0 ? ' or ' : ''}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{shortcut.what}</dd>
              </div>
            ))}
          </dl>
          <div className="row">
            <Button variant="secondary" onPress={close}>
              Close
            </Button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
