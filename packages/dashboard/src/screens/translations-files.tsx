/** The translations screen's files panel: export a locale as JSON and (admins) import a JSON file. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { type ImportResult, translationsKey } from '../api/translations.ts';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { CheckboxField, SelectField } from '../widgets/fields.tsx';
import { LocaleSelect } from './translations-locales.tsx';

/** The shapes of an exported file: keys with dots, or an object a level per dot. */
const FORMATS: readonly { value: 'flat' | 'nested'; label: string }[] = [
  { value: 'flat', label: 'Flat: {"a.b": "text"}' },
  { value: 'nested', label: 'Nested: {"a": {"b": "text"}}' },
];

export function Files({ projectId, locales, admin }: { projectId: string; locales: string[]; admin: boolean }) {
  const [exportLocale, setExportLocale] = useState(locales[0] ?? 'en');
  const [format, setFormat] = useState<'flat' | 'nested'>('flat');
  const [fallback, setFallback] = useState(false);
  const href = `/api/v1/projects/${encodeURIComponent(projectId)}/translations/export?${new URLSearchParams({
    locale: exportLocale,
    format,
    fallback: String(fallback),
  })}`;
  return (
    <section className="card stack" aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      <div className="translations-files">
        <div className="stack">
          <h3>Export</h3>
          <LocaleSelect label="Locale" value={exportLocale} locales={locales} onChange={setExportLocale} />
          <SelectField label="Format" value={format} options={FORMATS} onChange={setFormat} />
          <CheckboxField
            label="Every key, with fallbacks (as apps get them)"
            checked={fallback}
            onChange={setFallback}
          />
          <p>
            <a className="button button-secondary" href={href} download={`${exportLocale}.json`}>
              Download {exportLocale}.json
            </a>
          </p>
        </div>
        {admin ? <Import projectId={projectId} locales={locales} /> : null}
      </div>
    </section>
  );
}

function Import({ projectId, locales }: { projectId: string; locales: string[] }) {
  const queryClient = useQueryClient();
  const [locale, setLocale] = useState(locales[0] ?? 'en');
  const [namespace, setNamespace] = useState('');
  const [overwrite, setOverwrite] = useState(true);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      unwrap(
        api.POST('/projects/{projectId}/translations/import', {
          params: {
            path: { projectId },
            query: { locale, overwrite, ...(namespace.trim() ? { namespace: namespace.trim() } : {}) },
          },
          body,
        }),
      ),
    onSuccess: (outcome) => {
      setResult(outcome);
      void queryClient.invalidateQueries({ queryKey: translationsKey(projectId) });
    },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    setResult(null);
    upload.reset();
    if (!file) {
      setProblem('Choose a JSON file first.');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch (error) {
      setProblem(`${file.name} is not valid JSON: ${error instanceof Error ? error.message : 'unreadable'}`);
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setProblem(`${file.name} must hold one JSON object of keys and texts, flat or nested.`);
      return;
    }
    upload.mutate(parsed as Record<string, unknown>);
  };
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="import-title">
      <h3 id="import-title">Import</h3>
      <LocaleSelect label="Locale of the file" value={locale} locales={locales} onChange={setLocale} />
      <Field
        label="Namespace of new keys (optional)"
        value={namespace}
        onChange={setNamespace}
        serverError={fieldErrors(upload.error).namespace}
      />
      <CheckboxField label="Replace texts already stored in this locale" checked={overwrite} onChange={setOverwrite} />
      <div className="field">
        <label htmlFor={fileId}>JSON file</label>
        <input
          ref={fileInput}
          id={fileId}
          type="file"
          accept="application/json,.json"
          aria-describedby={`${fileId}-help`}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        <span id={`${fileId}-help`} className="field-help">
          Flat {'{"a.b": "text"}'} or nested {'{"a": {"b": "text"}}'}
        </span>
      </div>
      {problem ? (
        <p className="note note-error" role="alert">
          {problem}
        </p>
      ) : null}
      {upload.error ? <ErrorNote error={upload.error} /> : null}
      {result ? (
        <Note>
          Imported into {result.locale}: {result.created.length} created, {result.updated.length} updated,{' '}
          {result.unchanged.length} unchanged.
          {result.unsupportedLocale ? ` ${result.locale} is not one of the supported locales yet.` : ''}
        </Note>
      ) : null}
      <div className="row">
        <Button type="submit" variant="secondary" busy={upload.isPending}>
          Import file
        </Button>
      </div>
    </form>
  );
}
