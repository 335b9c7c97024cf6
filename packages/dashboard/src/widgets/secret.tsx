/**
 * A secret the server shows once (an API key, a personal access token): the value in a read-only
 * field, a copy button, and the warning that it will not be shown again.
 */
import { useState } from 'react';
import { Button } from '../ui.tsx';

export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div className="shown-once stack">
      <p className="note note-warn">Copy it now: it is shown only this once.</p>
      <div className="row">
        <input
          className="secret"
          readOnly
          value={value}
          aria-label={label}
          onFocus={(event) => event.target.select()}
        />
        <Button variant="secondary" onPress={copy}>
          Copy
        </Button>
      </div>
      <p role="status" className="muted">
        {copied === 'yes'
          ? 'Copied to the clipboard.'
          : copied === 'no'
            ? 'Copying failed: select the text and copy it.'
            : ''}
      </p>
    </div>
  );
}
