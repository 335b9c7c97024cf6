/**
 * A list's search box and text filters, edited here and sent together with Search or Enter. The
 * boxes follow `values` (the URL's), so Back and forward change what they show.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Button } from '../ui.tsx';

export interface TextFilterField {
  name: string;
  label: string;
  placeholder?: string | undefined;
}

export function TextFilterForm({
  fields,
  values,
  onSubmit,
}: {
  fields: readonly TextFilterField[];
  values: readonly string[];
  onSubmit: (changes: Record<string, string>) => void;
}) {
  // The values as one string, so the boxes follow them only when they change.
  const shown = JSON.stringify(values);
  const [texts, setTexts] = useState<string[]>(() => JSON.parse(shown));
  useEffect(() => setTexts(JSON.parse(shown)), [shown]);
  const baseId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(Object.fromEntries(fields.map(({ name }, index) => [name, (texts[index] ?? '').trim()])));
  };
  return (
    <form className="reports-search row" onSubmit={submit}>
      {fields.map(({ name, label, placeholder }, index) => (
        <div key={name} className={name === 'q' ? 'field reports-grow' : 'field'}>
          <label htmlFor={`${baseId}-${name}`}>{label}</label>
          <input
            id={`${baseId}-${name}`}
            type={name === 'q' ? 'search' : undefined}
            name={name}
            value={texts[index] ?? ''}
            placeholder={placeholder}
            onChange={(event) => setTexts((now) => now.map((text, i) => (i === index ? event.target.value : text)))}
          />
        </div>
      ))}
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}
