/**
 * A secret the server shows once (an API key, a personal access token): the value in a read-only
 * field, a copy button, and the warning that it will not be shown again.
 */
import { type ReactNode, useId, useState } from 'react';
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

/**
 * A card that holds a secret just made until it is dismissed with Done: its heading, the secret
 * and anything said about it (`children`, after it).
 */
export function ShownOnceCard({
  title,
  label,
  value,
  onDone,
  children,
}: {
  title: string;
  /** The secret's field's name. */
  label: string;
  value: string;
  onDone: () => void;
  children?: ReactNode;
}) {
  const titleId = useId();
  return (
    <section className="card stack" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <ShownOnce label={label} value={value} />
      {children}
      <div>
        <Button variant="secondary" onPress={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}
