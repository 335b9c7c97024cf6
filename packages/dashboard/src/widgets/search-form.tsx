/**
 * A screen's search box: the text kept in the URL (`value`), edited here and sent with Search or
 * Enter. Back and forward change the URL, and the box follows.
 */
import { useEffect, useId, useState } from 'react';
import { Button } from '../ui.tsx';
import { submitting } from './form-request.ts';

export function SearchForm({
  value,
  onSearch,
  placeholder,
  className,
  fieldClassName = 'field',
}: {
  value: string;
  onSearch: (text: string) => void;
  placeholder: string;
  className: string;
  fieldClassName?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const id = useId();
  const submit = submitting(() => onSearch(text.trim()));
  return (
    <form className={className} onSubmit={submit}>
      <div className={fieldClassName}>
        <label htmlFor={id}>Search</label>
        <input
          id={id}
          type="search"
          name="q"
          value={text}
          placeholder={placeholder}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}
