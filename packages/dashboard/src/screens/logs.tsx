/**
 * The log explorer: the project's log groups (most recently seen first) or its lines (newest
 * first, each with its fields; a live tail), filtered by level, time range, category, source and
 * text (with field filters such as `data.orderId = 42`) through the URL's search parameters (a
 * view can be shared, and Back returns to the previous one); a histogram of the lines by level
 * over the same range above the list; more rows through the API's cursor ("Load more"), which
 * stays as fast on the hundredth page as on the first.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { api } from '../api/client.ts';

import { LEVEL_LABELS, LEVELS, type Level, type LogSummary, logsKey, RANGES, type RangeValue } from '../api/logs.ts';
import { useProject } from '../project-layout.tsx';
import { Button, ErrorNote } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import './logs.css';
import { useUrlView, type ViewChanges } from '../url-view.ts';
import { LogLines } from './log-lines.tsx';
import { DataTable } from '../widgets/data-table.tsx';
import { When } from '../widgets/when.tsx';
import { useCursorList } from '../api/use-cursor-list.ts';
import { LoadMore } from '../widgets/load-more.tsx';
import { LevelHistogram } from './log-histogram.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { submitting } from '../widgets/form-request.ts';
import { ToggleButtons } from '../widgets/toggle-buttons.tsx';

const PAGE_SIZE = 50;
const DEFAULT_RANGE: RangeValue = '7d';
const STATUSES = [
  { value: '', label: 'Any status' },
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'ignored', label: 'Ignored' },
] as const;
type Status = (typeof STATUSES)[number]['value'];
/** `datetime-local` value (reader's time zone) from an ISO time, and back. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** The view as the URL says it; unknown values fall back to the default. */
function readView(params: URLSearchParams) {
  const levels = (params.get('level') ?? '')
    .split(',')
    .filter((value): value is Level => (LEVELS as readonly string[]).includes(value));
  const rangeParam = params.get('range') ?? '';
  const range = (RANGES.some((r) => r.value === rangeParam) ? rangeParam : DEFAULT_RANGE) as RangeValue;
  const iso = (name: string) => {
    const value = params.get(name) ?? '';
    return value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : '';
  };
  return {
    levels: LEVELS.filter((level) => levels.includes(level)),
    range,
    from: iso('from'),
    to: iso('to'),
    category: params.get('category') ?? '',
    source: params.get('source') ?? '',
    q: params.get('q') ?? '',
    status: (STATUSES.some((option) => option.value === params.get('status')) ? params.get('status') : '') as Status,
    show: params.get('show') === 'lines' ? ('lines' as const) : ('groups' as const),
  };
}
type View = ReturnType<typeof readView>;

/** The view's time window: a preset ends now (when the view was opened or changed). */
function windowOf(view: View, now: number): { since: string; until: string } | { error: string } {
  if (view.range === 'custom') {
    if (!view.from || !view.to) return { error: 'Choose both ends of the custom range.' };
    if (view.from >= view.to) return { error: 'The start of the range must be before its end.' };
    return { since: view.from, until: view.to };
  }
  const ms = RANGES.find((r) => r.value === view.range)?.ms ?? 7 * 86_400_000;
  return { since: new Date(now - ms).toISOString(), until: new Date(now).toISOString() };
}

export default function Logs() {
  useTitle('Logs');
  const project = useProject();
  const [params, update] = useUrlView();
  const location = useLocation();
  const view = readView(params);
  const viewKey = params.toString();
  // A preset range ends at the moment the view was chosen; choosing it again refreshes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new view is a new "now"
  const now = useMemo(() => Date.now(), [viewKey]);
  const span = windowOf(view, now);
  const filtered = Boolean(view.levels.length || view.category || view.source || view.q || view.status);

  const filters = {
    ...(view.levels.length > 0 ? { level: view.levels.join(',') } : {}),
    ...(view.category ? { category: view.category } : {}),
    ...(view.source ? { source: view.source } : {}),
    ...(view.q ? { q: view.q } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...('since' in span ? { since: span.since, until: span.until } : {}),
  };
  const enabled = 'since' in span;

  const histogram = useApiQuery(
    [...logsKey(project.id), 'histogram', filters],
    () =>
      api.GET('/projects/{projectId}/logs/histogram', {
        params: { path: { projectId: project.id }, query: filters },
      }),
    { enabled, placeholderData: keepPreviousData },
  );

  const { list, rows } = useCursorList(
    [...logsKey(project.id), 'list', filters],
    PAGE_SIZE,
    (paging) =>
      api.GET('/projects/{projectId}/logs', {
        params: { path: { projectId: project.id }, query: { ...filters, ...paging } },
      }),
    (page) => page.logs,
    { enabled: enabled && view.show === 'groups' },
  );

  const first = list.data?.pages[0];
  const totalText = first
    ? first.totalCapped
      ? `More than ${(first.total - 1).toLocaleString()} log groups`
      : first.total === 1
        ? '1 log group'
        : `${first.total.toLocaleString()} log groups`
    : '';

  return (
    <div className="logs stack">
      <h1>Logs</h1>
      <Filters view={view} update={update} />
      {'error' in span ? (
        <p className="field-error" role="alert">
          {span.error}
        </p>
      ) : null}
      {enabled ? <LevelHistogram query={histogram} label="Log lines by level over time" what="the histogram" /> : null}
      <ShowToggle show={view.show} update={update} />
      {!enabled ? null : view.show === 'lines' && 'since' in span ? (
        <LogLines
          projectId={project.id}
          query={{
            ...(view.levels.length > 0 ? { level: view.levels.join(',') } : {}),
            ...(view.category ? { category: view.category } : {}),
            ...(view.source ? { source: view.source } : {}),
            ...(view.q ? { q: view.q } : {}),
            ...(view.status ? { status: view.status } : {}),
            from: span.since,
            to: span.until,
          }}
          empty="No log lines match these filters in this time range."
          tail
        />
      ) : list.isPending ? (
        <Loading what="log groups" />
      ) : list.isError ? (
        <ErrorNote error={list.error} />
      ) : rows.length === 0 ? (
        <Empty>
          {filtered || view.range !== DEFAULT_RANGE ? (
            <p>
              No log groups match these filters in this time range. <Link to="?">Clear the filters</Link>
            </p>
          ) : (
            <p>
              No logs in the last 7 days. They arrive through the public API (<code>POST /logs</code> with a key that
              has the <code>logs:write</code> scope); repeats of a line are counted on one group.
            </p>
          )}
        </Empty>
      ) : (
        <>
          <p className="muted" role="status">
            {totalText}, {rows.length} shown
            {list.isFetching ? ' (updating…)' : ''}
          </p>
          <LogTable rows={rows} base={`/projects/${project.id}/logs`} search={location.search} />
          {list.hasNextPage ? (
            <LoadMore list={list} />
          ) : rows.length > PAGE_SIZE ? (
            <p className="muted">That is all of them.</p>
          ) : null}
        </>
      )}
    </div>
  );
}

/** The text filters beside the search box, each matching a log group's field exactly. */
const EXACT_FILTERS = [
  { name: 'category', label: 'Category' },
  { name: 'source', label: 'Source' },
] as const;

function Filters({ view, update }: { view: View; update: (changes: ViewChanges) => void }) {
  const [text, setText] = useState({ q: view.q, category: view.category, source: view.source });
  // Back and forward change the URL: the boxes follow.
  useEffect(
    () => setText({ q: view.q, category: view.category, source: view.source }),
    [view.q, view.category, view.source],
  );
  const [from, setFrom] = useState(toLocalInput(view.from));
  const [to, setTo] = useState(toLocalInput(view.to));
  useEffect(() => {
    setFrom(toLocalInput(view.from));
    setTo(toLocalInput(view.to));
  }, [view.from, view.to]);
  const ids = { q: useId(), qHelp: useId(), category: useId(), source: useId(), from: useId(), to: useId() };

  const submit = submitting(() =>
    update({ q: text.q.trim(), category: text.category.trim(), source: text.source.trim() }),
  );
  const toggleLevel = (level: Level, on: boolean) =>
    update((latest): Record<string, string> => {
      const shown = readView(latest).levels;
      const current: readonly Level[] = shown.length > 0 ? shown : LEVELS;
      const next = LEVELS.filter((l) => (l === level ? on : current.includes(l)));
      if (next.length === 0) return {};
      return { level: next.length === LEVELS.length ? '' : next.join(',') };
    });
  const applyRange = (event: FormEvent) => {
    event.preventDefault();
    update({ range: 'custom', from: fromLocalInput(from), to: fromLocalInput(to) });
  };

  return (
    <search aria-label="Filter log groups" className="logs-filters">
      <form className="logs-text row" onSubmit={submit}>
        <div className="field logs-q">
          <label htmlFor={ids.q}>Search</label>
          <input
            id={ids.q}
            type="search"
            name="q"
            value={text.q}
            placeholder="Message, category, source, or data.orderId = 42"
            aria-describedby={ids.qHelp}
            onChange={(event) => setText({ ...text, q: event.target.value })}
          />
        </div>
        {EXACT_FILTERS.map(({ name, label }) => (
          <div key={name} className="field">
            <label htmlFor={ids[name]}>{label}</label>
            <input
              id={ids[name]}
              name={name}
              value={text[name]}
              onChange={(event) => setText({ ...text, [name]: event.target.value })}
            />
          </div>
        ))}
        <Button type="submit" variant="secondary">
          Apply
        </Button>
        {/* On a line of its own under the row: inside the search's field it pushed that field's
            input above the others' (the row aligns the fields' bottoms). */}
        <p id={ids.qHelp} className="muted field-help logs-q-help">
          Fields: <code>data.orderId = 42</code>, <code>data.path = /api/*</code>, <code>has:data.orderId</code>
        </p>
      </form>
      <div className="logs-row">
        <fieldset className="logs-levels">
          <legend>Levels</legend>
          {LEVELS.map((level) => (
            <label key={level} className="logs-level">
              <input
                type="checkbox"
                checked={view.levels.length === 0 || view.levels.includes(level)}
                // The last level shown stays: a list of no level would be empty.
                disabled={view.levels.length === 1 && view.levels[0] === level}
                onChange={(event) => toggleLevel(level, event.target.checked)}
              />
              <span className={`level level-${level}`}>{LEVEL_LABELS[level]}</span>
            </label>
          ))}
        </fieldset>
        <SelectField label="Status" value={view.status} options={STATUSES} onChange={(status) => update({ status })} />
        <SelectField
          label="Time range"
          value={view.range}
          options={RANGES.map((r) => ({ value: r.value, label: r.label }))}
          onChange={(range) =>
            update(
              range === 'custom'
                ? {
                    range,
                    from: view.from || new Date(Date.now() - 86_400_000).toISOString(),
                    to: view.to || new Date().toISOString(),
                  }
                : { range: range === DEFAULT_RANGE ? '' : range, from: '', to: '' },
            )
          }
        />
      </div>
      {view.range === 'custom' ? (
        <form className="logs-custom row" onSubmit={applyRange} aria-label="Custom range">
          <div className="field">
            <label htmlFor={ids.from}>From</label>
            <input id={ids.from} type="datetime-local" value={from} onChange={(event) => setFrom(event.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={ids.to}>To</label>
            <input id={ids.to} type="datetime-local" value={to} onChange={(event) => setTo(event.target.value)} />
          </div>
          <Button type="submit" variant="secondary">
            Apply range
          </Button>
        </form>
      ) : null}
    </search>
  );
}

const SHOW_OPTIONS = [
  { value: 'groups', label: 'Groups' },
  { value: 'lines', label: 'Lines' },
] as const;

/** Groups (one row per message, with its count) or lines (every entry, with its fields). */
function ShowToggle({ show, update }: { show: 'groups' | 'lines'; update: (changes: ViewChanges) => void }) {
  return (
    <ToggleButtons
      className="row log-show"
      legend="Show"
      options={SHOW_OPTIONS}
      value={show}
      onChange={(value) => update({ show: value === 'groups' ? '' : value })}
    />
  );
}

function LogTable({ rows, base, search }: { rows: LogSummary[]; base: string; search: string }) {
  return (
    <DataTable
      className="logs-table"
      label="Log groups"
      columns={['Level', 'Message', 'Category', 'Source', { label: 'Count', className: 'num' }, 'Last seen']}
    >
      {rows.map((row) => (
        <tr key={row.id}>
          <td>
            <span className={`level level-${row.level}`}>{LEVEL_LABELS[row.level as Level] ?? row.level}</span>
          </td>
          <td className="logs-message">
            <Link to={`${base}/${row.id}`} state={{ logsSearch: search }}>
              {row.message || '(no message)'}
            </Link>
            {row.environment === 'test' ? <span className="badge badge-muted logs-flag">Test key</span> : null}
            {row.status !== 'open' ? (
              <span className="badge badge-muted logs-flag">{row.status === 'resolved' ? 'Resolved' : 'Ignored'}</span>
            ) : null}
          </td>
          <td>{row.category ?? <span className="muted">–</span>}</td>
          <td>{row.source ?? <span className="muted">–</span>}</td>
          <td className="num">{row.occurrences.toLocaleString()}</td>
          <td>
            <When at={row.lastSeenAt} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
