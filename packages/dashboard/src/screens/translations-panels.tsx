/**
 * The panels of the translations screen around its grid: progress per locale, the missing-keys
 * inbox, adding a key, files (import, export) and the locale settings.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import {
  type ImportResult,
  type Locales,
  type MissingEntry,
  type Summary,
  translationsKey,
} from '../api/translations.ts';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { CheckboxField, SelectField } from '../widgets/fields.tsx';
import { FormActions } from '../widgets/form-actions.tsx';
import { Empty, Loading, QueryView } from '../widgets/states.tsx';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

export function Progress({
  summary,
}: {
  summary: { isPending: boolean; isError: boolean; error: unknown; data: Summary | undefined };
}) {
  return (
    <section className="card stack" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      <QueryView query={summary} what="progress">
        {(data) =>
          data.totalKeys === 0 ? (
            <p className="muted">No keys yet, so nothing to translate.</p>
          ) : (
            <ul className="translations-progress">
              {data.locales.map((entry) => {
                const share = percent(entry.translated, data.totalKeys);
                return (
                  <li key={entry.locale}>
                    <span id={`progress-${entry.locale}`} className="translations-progress-text">
                      <strong>{entry.locale}</strong>: {entry.translated} of {data.totalKeys} translated ({share}%)
                      {entry.supported ? '' : ' · not a supported locale'}
                    </span>
                    <meter
                      min={0}
                      max={data.totalKeys}
                      value={entry.translated}
                      aria-labelledby={`progress-${entry.locale}`}
                    >
                      {share}%
                    </meter>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

interface MissingKey {
  key: string;
  exists: boolean;
  occurrences: number;
  lastSeenAt: string;
  locales: MissingEntry[];
}

function byKey(entries: MissingEntry[]): MissingKey[] {
  const keys = new Map<string, MissingKey>();
  for (const entry of entries) {
    let item = keys.get(entry.key);
    if (!item) {
      item = { key: entry.key, exists: entry.keyExists, occurrences: 0, lastSeenAt: entry.lastSeenAt, locales: [] };
      keys.set(entry.key, item);
    }
    item.occurrences += entry.occurrences;
    if (entry.lastSeenAt > item.lastSeenAt) item.lastSeenAt = entry.lastSeenAt;
    item.locales.push(entry);
  }
  return [...keys.values()];
}

export function MissingInbox({ projectId, admin }: { projectId: string; admin: boolean }) {
  const queryClient = useQueryClient();
  const missing = useQuery({
    queryKey: [...translationsKey(projectId), 'missing'],
    queryFn: () =>
      unwrap(
        api.GET('/projects/{projectId}/translations/missing', {
          params: { path: { projectId }, query: { limit: 500 } },
        }),
      ),
  });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [note, setNote] = useState('');
  const add = useMutation({
    mutationFn: (keys: string[]) =>
      unwrap(
        api.POST('/projects/{projectId}/translations/missing/keys', {
          params: { path: { projectId } },
          body: { keys },
        }),
      ),
    onSuccess: (result) => {
      setSelected(new Set());
      const parts = [
        result.created.length > 0
          ? `Added ${result.created.length === 1 ? '1 key' : `${result.created.length} keys`}: ${result.created.join(', ')}.`
          : '',
        result.existing.length > 0 ? `Already keys: ${result.existing.join(', ')}.` : '',
        result.invalid.length > 0
          ? `Not valid key names (letters, digits, . _ - only): ${result.invalid.join(', ')}.`
          : '',
      ];
      setNote(parts.filter(Boolean).join(' '));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: translationsKey(projectId) }),
  });
  const items = byKey(missing.data?.missing ?? []);
  const shown = missing.data?.missing.length ?? 0;
  const reported = missing.data?.total ?? 0;
  const addable = items.filter((item) => !item.exists);
  const toggle = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    setSelected(next);
  };
  return (
    <section className="card stack" aria-labelledby="missing-title">
      <h2 id="missing-title">Missing keys reported by apps</h2>
      <p className="muted">
        Keys the SDKs asked for at runtime and found no text for, per locale, most reported first.
      </p>
      {note ? <Note>{note}</Note> : null}
      {missing.isPending ? (
        <Loading what="missing keys" />
      ) : missing.isError ? (
        <ErrorNote error={missing.error} />
      ) : items.length === 0 ? (
        <Empty>
          <p>No missing keys reported. Apps report them through the public API (POST /i18n-telemetry).</p>
        </Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table translations-missing">
              <caption className="visually-hidden">Missing keys</caption>
              <thead>
                <tr>
                  {admin ? (
                    <th scope="col">
                      <span className="visually-hidden">Select</span>
                    </th>
                  ) : null}
                  <th scope="col">Key</th>
                  <th scope="col">Locales (reports)</th>
                  <th scope="col" className="num">
                    Reports
                  </th>
                  <th scope="col">Last reported</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.key}>
                    {admin ? (
                      <td>
                        {item.exists ? null : (
                          <input
                            type="checkbox"
                            aria-label={`Select ${item.key}`}
                            checked={selected.has(item.key)}
                            onChange={(event) => toggle(item.key, event.target.checked)}
                          />
                        )}
                      </td>
                    ) : null}
                    <th scope="row">
                      <code>{item.key}</code>
                    </th>
                    <td>{item.locales.map((entry) => `${entry.locale} (${entry.occurrences})`).join(', ')}</td>
                    <td className="num">{item.occurrences}</td>
                    <td>
                      <time dateTime={item.lastSeenAt}>{new Date(item.lastSeenAt).toLocaleString()}</time>
                    </td>
                    <td>{item.exists ? 'Is a key; text missing' : 'Not a key yet'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {reported > shown ? (
            <p className="muted">
              Showing the {shown} most reported of {reported} reports by key and locale.
            </p>
          ) : null}
          {admin && addable.length > 0 ? (
            <div className="row">
              <Button
                isDisabled={selected.size === 0}
                busy={add.isPending}
                onPress={() => {
                  setNote('');
                  add.mutate([...selected]);
                }}
              >
                {selected.size === 0
                  ? 'Add as keys'
                  : `Add ${selected.size === 1 ? '1 key' : `${selected.size} keys`} as keys`}
              </Button>
              <Button
                variant="secondary"
                busy={add.isPending}
                onPress={() => {
                  setNote('');
                  add.mutate(addable.map((item) => item.key));
                }}
              >
                Add every new one ({addable.length})
              </Button>
            </div>
          ) : null}
          {add.error ? <ErrorNote error={add.error} /> : null}
        </>
      )}
    </section>
  );
}

export function AddKey({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const empty = { key: '', defaultText: '', namespace: '', category: '' };
  const [form, setForm] = useState(empty);
  const [note, setNote] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/translations/keys', {
          params: { path: { projectId } },
          body: {
            key: form.key.trim(),
            defaultText: form.defaultText,
            ...(form.namespace.trim() ? { namespace: form.namespace.trim() } : {}),
            ...(form.category.trim() ? { category: form.category.trim() } : {}),
          },
        }),
      ),
    onSuccess: (created) => {
      setNote(`Key ${created.key} added.`);
      setForm(empty);
      void queryClient.invalidateQueries({ queryKey: translationsKey(projectId) });
    },
  });
  const errors = fieldErrors(create.error);
  const set = (name: keyof typeof empty) => (value: string) => setForm((current) => ({ ...current, [name]: value }));
  return (
    <details className="translations-add">
      <summary>Add a key</summary>
      <form
        className="stack"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setNote('');
          create.mutate();
        }}
      >
        <div className="translations-form-grid">
          <Field
            label="Key"
            description="Letters, digits, dots, underscores and hyphens, e.g. checkout.pay"
            value={form.key}
            onChange={set('key')}
            isRequired
            serverError={errors.key}
          />
          <Field
            label="Default text"
            value={form.defaultText}
            onChange={set('defaultText')}
            serverError={errors.defaultText}
          />
          <Field
            label="Namespace (optional)"
            value={form.namespace}
            onChange={set('namespace')}
            serverError={errors.namespace}
          />
          <Field
            label="Category (optional)"
            value={form.category}
            onChange={set('category')}
            serverError={errors.category}
          />
        </div>
        <FormActions error={create.error} note={note} busy={create.isPending} submit="Add key" />
      </form>
    </details>
  );
}

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
          <SelectField
            label="Locale"
            value={exportLocale}
            options={locales.map((l) => ({ value: l, label: l }))}
            onChange={setExportLocale}
          />
          <SelectField
            label="Format"
            value={format}
            options={[
              { value: 'flat', label: 'Flat: {"a.b": "text"}' },
              { value: 'nested', label: 'Nested: {"a": {"b": "text"}}' },
            ]}
            onChange={setFormat}
          />
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
      <SelectField
        label="Locale of the file"
        value={locale}
        options={locales.map((l) => ({ value: l, label: l }))}
        onChange={setLocale}
      />
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

export function LocaleSettings({ projectId, locales, admin }: { projectId: string; locales: Locales; admin: boolean }) {
  const queryClient = useQueryClient();
  const [defaultLocale, setDefaultLocale] = useState(locales.defaultLocale);
  const [supported, setSupported] = useState(locales.supportedLocales.join(', '));
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setDefaultLocale(locales.defaultLocale);
    setSupported(locales.supportedLocales.join(', '));
  }, [locales]);
  const list = supported
    .split(/[\s,]+/)
    .map((l) => l.trim())
    .filter(Boolean);
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH('/projects/{projectId}/translations/locales', {
          params: { path: { projectId } },
          body: { defaultLocale, supportedLocales: list },
        }),
      ),
    onSuccess: () => {
      setSaved(true);
      void queryClient.invalidateQueries({ queryKey: translationsKey(projectId) });
    },
  });
  const errors = fieldErrors(save.error);
  const supportedError = Object.entries(errors).find(([field]) => field.startsWith('supportedLocales'))?.[1];
  if (!admin) {
    return (
      <section className="card stack" aria-labelledby="locales-title">
        <h2 id="locales-title">Locales</h2>
        <p>
          Default locale: <strong>{locales.defaultLocale}</strong>. Supported: {locales.supportedLocales.join(', ')}.
        </p>
      </section>
    );
  }
  const options = [...new Set([...list, defaultLocale])];
  return (
    <section className="card stack" aria-labelledby="locales-title">
      <h2 id="locales-title">Locales</h2>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          save.mutate();
        }}
      >
        <div className="translations-form-grid">
          <Field
            label="Supported locales"
            description="BCP 47 tags separated by commas, e.g. en, de, pt-BR"
            value={supported}
            onChange={(value) => {
              setSupported(value);
              setSaved(false);
            }}
            serverError={supportedError}
          />
          <SelectField
            label="Default locale"
            description="Every key falls back to it"
            value={defaultLocale}
            options={options.map((l) => ({ value: l, label: l }))}
            onChange={(value) => {
              setDefaultLocale(value);
              setSaved(false);
            }}
            error={errors.defaultLocale}
          />
        </div>
        <FormActions
          error={save.error}
          note={saved ? 'Locales saved.' : null}
          busy={save.isPending}
          submit="Save locales"
        />
      </form>
    </section>
  );
}
