/**
 * The audit log: who did what in the project (its own actions and its team's), newest first, in a
 * dense table filtered by actor, action, target and time range (kept in the URL, so a view can be
 * shared), more rows through the API's cursor; the chosen entry's before and after beside it; the
 * same filters exported as CSV or JSON lines. `j`/`k` move the selection. How long entries are kept
 * (the API's audit settings, 1 to 3650 days) is set at the foot of the screen; the change shows in
 * the log. Admins and owners only, as the API: a member is told so.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../api/client.ts';
import { type AuditEntry, auditKey, exportUrl } from '../api/audit.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../ui.tsx';
import { useKeyShortcuts } from '../use-key-shortcuts.ts';
import { useTitle } from '../use-title.ts';
import { useUrlView } from '../url-view.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import { TextFilterForm } from '../widgets/text-filters.tsx';
import './audit.css';
import './reports.css';
import { DataTable } from '../widgets/data-table.tsx';
import { useCursorList } from '../api/use-cursor-list.ts';
import { setAnd } from '../widgets/form-request.ts';
import { useApiQuery } from '../api/use-api-query.ts';

const PAGE_SIZE = 100;
const RANGES = [
  { value: '1d', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
  { value: 'all', label: 'All kept', ms: 0 },
] as const;
type Range = (typeof RANGES)[number]['value'];
const TEXT_FIELDS = [
  { name: 'actor', label: 'Who', placeholder: 'e-mail or id' },
  { name: 'action', label: 'Action', placeholder: 'e.g. flag.updated' },
  { name: 'targetType', label: 'Target type', placeholder: 'e.g. feature' },
  { name: 'targetId', label: 'Target id' },
] as const;

const VIA_LABELS: Record<AuditEntry['actor']['via'], string> = {
  session: 'dashboard',
  token: 'API token',
  cli: 'CLI',
  'public-api': 'public API',
  mcp: 'MCP',
  system: 'system',
};

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

function State({ label, value }: { label: string; value: unknown }) {
  return (
    <div className="stack">
      <h3>{label}</h3>
      {value === null ? <p className="muted">Nothing</p> : <pre>{JSON.stringify(value, null, 2)}</pre>}
    </div>
  );
}

const RETENTION = { min: 1, max: 3650 } as const;

/** How long the log is kept: the API's audit settings, read and saved here. */
function RetentionSetting({ projectId }: { projectId: string }) {
  const client = useQueryClient();
  const key = [...auditKey(projectId), 'settings'] as const;
  const path = { params: { path: { projectId } } };
  const settings = useApiQuery(key, () => api.GET('/projects/{projectId}/audit/settings', path));
  const [days, setDays] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (retentionDays: number) =>
      unwrap(api.PUT('/projects/{projectId}/audit/settings', { ...path, body: { retentionDays } })),
    onSuccess: async (saved) => {
      client.setQueryData(key, saved);
      setDays(null);
      // The change is itself an entry of the log.
      await client.invalidateQueries({ queryKey: auditKey(projectId), exact: false });
    },
  });
  const value = days ?? (settings.data ? String(settings.data.retentionDays) : '');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < RETENTION.min || parsed > RETENTION.max) {
      setProblem(`A whole number of days from ${RETENTION.min} to ${RETENTION.max}`);
      return;
    }
    setProblem(undefined);
    save.mutate(parsed);
  };
  return (
    <Form className="card stack" onSubmit={submit} aria-labelledby="audit-retention-title">
      <h2 id="audit-retention-title">Retention</h2>
      {settings.error ? <ErrorNote error={settings.error} /> : null}
      <Field
        label="Keep entries for (days)"
        description="Older entries are deleted every hour; 365 unless set"
        type="number"
        value={value}
        onChange={setAnd(setDays, () => {
          setProblem(undefined);
          save.reset();
        })}
        isDisabled={settings.isPending}
        serverError={problem ?? fieldErrors(save.error)['retentionDays']}
      />
      <div className="row">
        <Button type="submit" busy={save.isPending} isDisabled={settings.isPending}>
          Save retention
        </Button>
      </div>
      {save.error && !fieldErrors(save.error)['retentionDays'] ? <ErrorNote error={save.error} /> : null}
      {save.isSuccess ? <Note>Entries are kept for {save.data.retentionDays} days.</Note> : null}
    </Form>
  );
}

export default function AuditLog() {
  const project = useProject();
  useTitle(`Audit log · ${project.name}`);
  const [params, update] = useUrlView();
  const range = (RANGES.some((r) => r.value === params.get('range')) ? params.get('range') : '7d') as Range;
  const texts = TEXT_FIELDS.map(({ name }) => params.get(name) ?? '');
  // A preset range ends when the view was opened or changed, so paging keeps one window.
  const since = useMemo(() => {
    const ms = RANGES.find((r) => r.value === range)?.ms ?? 0;
    return ms ? new Date(Date.now() - ms).toISOString() : undefined;
  }, [range]);
  const filters = {
    ...Object.fromEntries(TEXT_FIELDS.map(({ name }, i) => [name, texts[i] || undefined])),
    since,
  } as Record<string, string | undefined>;
  const admin = canAdminister(project);

  const { list, rows } = useCursorList(
    [...auditKey(project.id), filters],
    PAGE_SIZE,
    (paging) =>
      api.GET('/projects/{projectId}/audit', {
        params: { path: { projectId: project.id }, query: { ...filters, ...paging } },
      }),
    (page) => page.entries,
    { enabled: admin, keepPrevious: true },
  );
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = rows.find((row) => row.id === selectedId) ?? rows[0] ?? null;

  // j / k: next and previous entry, unless typing in a field.
  const step = (by: number) => {
    const index = rows.findIndex((row) => row.id === selected?.id);
    const next = rows[Math.min(rows.length - 1, Math.max(0, index + by))];
    if (next) {
      setSelectedId(next.id);
      document.getElementById(`audit-${next.id}`)?.focus();
    }
  };
  useKeyShortcuts({ j: () => step(1), k: () => step(-1) });

  if (!admin) {
    return (
      <div className="stack">
        <h1>Audit log</h1>
        <p className="note">The audit log is for the team’s admins and owners.</p>
      </div>
    );
  }
  return (
    <div className="stack">
      <h1>Audit log</h1>
      <div className="row">
        <SelectField
          label="Time range"
          value={range}
          options={RANGES.map(({ value, label }) => ({ value, label }))}
          onChange={(value) => update({ range: value === '7d' ? '' : value })}
        />
        <TextFilterForm fields={TEXT_FIELDS} values={texts} onSubmit={(changes) => update(changes)} />
      </div>
      <div className="row">
        <a className="button button-secondary" href={exportUrl(project.id, 'csv', filters)} download>
          Export CSV
        </a>
        <a className="button button-secondary" href={exportUrl(project.id, 'jsonl', filters)} download>
          Export JSON lines
        </a>
        <span className="muted">Keys: j / k move through the entries.</span>
      </div>
      {list.error ? <ErrorNote error={list.error} /> : null}
      {list.isPending ? (
        <Loading what="audit log" />
      ) : rows.length === 0 ? (
        <Empty>No audit entries match.</Empty>
      ) : (
        <div className="audit-panes">
          <div className="table-wrap">
            <DataTable
              className="audit-table"
              caption="Audit entries, newest first"
              wrapClassName={null}
              columns={['When', 'Who', 'Via', 'Action', 'Target']}
            >
              {rows.map((row) => (
                <tr key={row.id} data-selected={row.id === selected?.id}>
                  <td>
                    <button
                      type="button"
                      id={`audit-${row.id}`}
                      className="audit-row"
                      aria-current={row.id === selected?.id ? 'true' : undefined}
                      onClick={() => setSelectedId(row.id)}
                    >
                      {when(row.at)}
                    </button>
                  </td>
                  <td>{row.actor.label}</td>
                  <td>{VIA_LABELS[row.actor.via]}</td>
                  <td>
                    <code>{row.action}</code>
                  </td>
                  <td>
                    {row.target.type}
                    {row.target.id ? <span className="muted"> {row.target.id}</span> : null}
                    {row.projectId === null ? <span className="badge">team</span> : null}
                  </td>
                </tr>
              ))}
            </DataTable>
            {list.hasNextPage ? (
              <Button variant="secondary" onPress={() => list.fetchNextPage()} isDisabled={list.isFetchingNextPage}>
                Load more
              </Button>
            ) : null}
          </div>
          {selected ? (
            <section className="card stack audit-detail" aria-label="Chosen entry">
              <h2>
                <code>{selected.action}</code>
              </h2>
              <p className="muted">
                {when(selected.at)} · {selected.actor.label} · {VIA_LABELS[selected.actor.via]}
              </p>
              <State label="Before" value={selected.before} />
              <State label="After" value={selected.after} />
            </section>
          ) : null}
        </div>
      )}
      <RetentionSetting projectId={project.id} />
    </div>
  );
}
