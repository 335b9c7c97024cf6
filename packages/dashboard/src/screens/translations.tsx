/**
 * Translations: progress per locale, the missing-keys inbox (keys the SDKs reported, added as keys
 * in one action), locale settings, files (import, export), and the grid of keys by locales with
 * inline editing. Filters and the page live in the URL (namespace, category, q, missing, page).
 * A cell saves on Enter or when it loses focus (an emptied cell removes the text), and says so in
 * place: Saved, or the server's refusal with the typed text kept.
 */
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { type TranslationKey, translationsKey } from '../api/translations.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { ListStates } from '../widgets/states.tsx';
import { AddKey, Files, LocaleSettings, MissingInbox, Progress } from './translations-panels.tsx';
import './translations.css';
import { SearchForm } from '../widgets/search-form.tsx';
import { useUrlView } from '../url-view.ts';
import { Pager } from '../widgets/pager.tsx';
import { ACTIONS, DataTable } from '../widgets/data-table.tsx';
import { ViewFilters } from '../widgets/view-filters.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

const PAGE_SIZE = 50;

function readView(params: URLSearchParams) {
  return {
    q: params.get('q') ?? '',
    namespace: params.get('namespace') ?? '',
    category: params.get('category') ?? '',
    missing: params.get('missing') ?? '',
    page: Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
  };
}

export default function Translations() {
  useTitle('Translations');
  const project = useProject();
  const admin = canAdminister(project);
  const [params, update] = useUrlView();
  const view = readView(params);
  const filtered = Boolean(view.q || view.namespace || view.category || view.missing);

  const summary = useApiQuery([...translationsKey(project.id), 'summary'], () =>
    api.GET('/projects/{projectId}/translations/summary', { params: { path: { projectId: project.id } } }),
  );
  const locales = useApiQuery([...translationsKey(project.id), 'locales'], () =>
    api.GET('/projects/{projectId}/translations/locales', { params: { path: { projectId: project.id } } }),
  );
  const query = {
    ...(view.q ? { q: view.q } : {}),
    ...(view.namespace ? { namespace: view.namespace } : {}),
    ...(view.category ? { category: view.category } : {}),
    ...(view.missing ? { missingLocale: view.missing } : {}),
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  };
  const keys = useApiQuery(
    [...translationsKey(project.id), 'keys', query],
    () => api.GET('/projects/{projectId}/translations/keys', { params: { path: { projectId: project.id }, query } }),
    { placeholderData: keepPreviousData },
  );

  const supported = locales.data?.supportedLocales ?? [];
  const rows = keys.data?.keys ?? [];
  const total = keys.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="translations stack">
      <h1>Translations</h1>
      <Progress summary={summary} />
      <MissingInbox projectId={project.id} admin={admin} />
      <section className="card stack" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        <Filters
          view={view}
          update={update}
          namespaces={summary.data?.namespaces ?? []}
          categories={summary.data?.categories ?? []}
          locales={summary.data?.locales.map((l) => l.locale) ?? supported}
        />
        {admin ? <AddKey projectId={project.id} /> : null}
        <ListStates
          queries={[keys, locales]}
          what="keys"
          isEmpty={rows.length === 0}
          empty={
            filtered ? (
              <p>
                No keys match these filters. <Link to="?">Clear the filters</Link>
              </p>
            ) : (
              <p>No keys yet. Add one, import a file, or add the keys your apps reported missing.</p>
            )
          }
        >
          {() => (
            <>
              <p className="muted" role="status">
                {total === 1 ? '1 key' : `${total} keys`}
                {pages > 1 ? `, page ${view.page} of ${pages}` : ''}
                {keys.isFetching ? ' (updating…)' : ''}
              </p>
              {admin ? (
                <p className="muted translations-hint">
                  Edit a text in place: Enter saves it and moves down, leaving the cell saves it too, Escape puts it
                  back, an empty cell removes the text (the key then falls back to the default locale).
                </p>
              ) : null}
              <Grid projectId={project.id} rows={rows} locales={supported} admin={admin} />
              <Pager page={view.page} pages={pages} onPage={(page) => update({ page: String(page) })} />
            </>
          )}
        </ListStates>
      </section>
      {locales.data ? <Files projectId={project.id} locales={supported} admin={admin} /> : null}
      {locales.data ? <LocaleSettings projectId={project.id} locales={locales.data} admin={admin} /> : null}
    </div>
  );
}

function Filters({
  view,
  update,
  namespaces,
  categories,
  locales,
}: {
  view: ReturnType<typeof readView>;
  update: (changes: Record<string, string>) => void;
  namespaces: string[];
  categories: string[];
  locales: string[];
}) {
  // The names the filter offers, and the one in the URL when the list lacks it (still shown as chosen).
  const choices = (list: string[], current: string, label = (name: string) => name) =>
    (current && !list.includes(current) ? [...list, current] : list).map((name) => ({
      value: name,
      label: label(name),
    }));
  return (
    <search aria-label="Search and filter keys" className="translations-filters">
      <SearchForm
        value={view.q}
        onSearch={(q) => update({ q })}
        placeholder="Key or default text"
        className="row translations-search"
      />
      <div className="translations-selects">
        <ViewFilters
          read={(name) => view[name]}
          update={update}
          filters={[
            {
              name: 'namespace',
              label: 'Namespace',
              empty: 'Any namespace',
              options: choices(namespaces, view.namespace),
            },
            { name: 'category', label: 'Category', empty: 'Any category', options: choices(categories, view.category) },
            {
              name: 'missing',
              label: 'Missing in locale',
              empty: 'Any (show all keys)',
              options: choices(locales, view.missing, (locale) => `Missing in ${locale}`),
            },
          ]}
        />
      </div>
    </search>
  );
}

function Grid({
  projectId,
  rows,
  locales,
  admin,
}: {
  projectId: string;
  rows: TranslationKey[];
  locales: string[];
  admin: boolean;
}) {
  const queryClient = useQueryClient();
  return (
    <DataTable
      className="translations-grid"
      caption="Keys by locale"
      columns={['Key', 'Default text', ...locales.map((locale) => ({ label: locale, lang: locale })), admin && ACTIONS]}
    >
      {rows.map((row) => (
        <tr key={row.key}>
          <th scope="row" className="translations-key">
            <code>{row.key}</code>
            {row.namespace || row.category ? (
              <span className="translations-meta muted">
                {[row.namespace && `namespace ${row.namespace}`, row.category && `category ${row.category}`]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            ) : null}
          </th>
          <td className="translations-default">{row.defaultText}</td>
          {locales.map((locale) => (
            <td key={locale} className="translations-cell">
              {admin ? (
                <Cell projectId={projectId} keyName={row.key} locale={locale} value={row.translations[locale]} />
              ) : row.translations[locale] !== undefined ? (
                <span lang={locale}>{row.translations[locale]}</span>
              ) : (
                <span className="muted">Missing</span>
              )}
            </td>
          ))}
          {admin ? (
            <td>
              <ConfirmButton
                label="Delete"
                title={`Delete the key ${row.key}?`}
                confirmLabel="Delete key"
                onConfirm={async () => {
                  await unwrap(
                    api.DELETE('/projects/{projectId}/translations/keys/{key}', {
                      params: { path: { projectId, key: row.key } },
                    }),
                  );
                  await queryClient.invalidateQueries({ queryKey: translationsKey(projectId) });
                }}
              >
                <p>The key and its texts in every locale are deleted; apps fall back to their own text for it.</p>
              </ConfirmButton>
            </td>
          ) : null}
        </tr>
      ))}
    </DataTable>
  );
}

type CellState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; removed: boolean }
  | { kind: 'error'; error: unknown };

/** One key's text in one locale, edited in place. */
function Cell({
  projectId,
  keyName,
  locale,
  value,
}: {
  projectId: string;
  keyName: string;
  locale: string;
  value: string | undefined;
}) {
  const queryClient = useQueryClient();
  /** The text the server has, as far as this cell knows. */
  const [stored, setStored] = useState(value ?? '');
  const [text, setText] = useState(value ?? '');
  const [state, setState] = useState<CellState>({ kind: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  const statusId = useId();
  // A fresh list from the server: follow it unless the cell holds unsaved or refused text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new server value matters here
  useEffect(() => {
    setStored(value ?? '');
    if (document.activeElement !== input.current) setText((current) => (current === stored ? (value ?? '') : current));
  }, [value]);

  /** The text being saved: a blur right after Enter must not save it twice. */
  const inFlight = useRef<string | null>(null);
  const save = async () => {
    if (text === stored || inFlight.current === text) return;
    inFlight.current = text;
    setState({ kind: 'saving' });
    const path = { projectId, key: keyName, locale };
    try {
      if (text === '') {
        await unwrap(api.DELETE('/projects/{projectId}/translations/keys/{key}/values/{locale}', { params: { path } }));
      } else {
        await unwrap(
          api.PUT('/projects/{projectId}/translations/keys/{key}/values/{locale}', {
            params: { path },
            body: { text },
          }),
        );
      }
      setStored(text);
      setState({ kind: 'saved', removed: text === '' });
      await queryClient.invalidateQueries({ queryKey: [...translationsKey(projectId), 'summary'] });
    } catch (error) {
      setState({ kind: 'error', error });
    } finally {
      inFlight.current = null;
    }
  };
  /** Enter saves and moves down to the same locale of the next key, as in a spreadsheet. */
  const moveDown = () => {
    const cell = input.current?.closest('td');
    const row = cell?.closest('tr');
    if (!cell || !row) return;
    const next = row.nextElementSibling?.children[[...row.children].indexOf(cell)];
    next?.querySelector('input')?.focus();
  };

  const message =
    state.kind === 'saving'
      ? 'Saving…'
      : state.kind === 'saved'
        ? state.removed
          ? 'Removed'
          : 'Saved'
        : state.kind === 'error'
          ? `Not saved: ${state.error instanceof Error ? state.error.message : 'something went wrong'}`
          : text !== stored
            ? 'Unsaved'
            : '';
  return (
    <div className={`translations-editor translations-${state.kind}`}>
      <input
        ref={input}
        type="text"
        lang={locale}
        value={text}
        aria-label={`${keyName} in ${locale}`}
        aria-invalid={state.kind === 'error' ? true : undefined}
        aria-describedby={statusId}
        placeholder="Missing"
        onChange={(event) => {
          setText(event.target.value);
          if (state.kind !== 'saving') setState({ kind: 'idle' });
        }}
        onBlur={() => void save()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            void save();
            moveDown();
          } else if (event.key === 'Escape') {
            setText(stored);
            setState({ kind: 'idle' });
          }
        }}
      />
      <span id={statusId} className="translations-state" aria-live="polite">
        {message}
      </span>
    </div>
  );
}
