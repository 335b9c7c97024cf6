/**
 * Import from another tool (issue 36): pick the source and the export file, run a dry run, read
 * what would be created, matched and skipped, change the status table where the defaults are
 * wrong (each row's "becomes" feeds the next run's map), then import. Admins only; the form on
 * the left, the report on the right. Shortcut: Alt+D runs the dry run again.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import {
  type ImportReport,
  type ImportSource,
  runImport,
  SOURCES,
  STATUS_TARGETS,
  type StatusTarget,
} from '../api/imports.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field, Note } from '../ui.tsx';
import { SelectField } from '../widgets/fields.tsx';
import { useTitle } from '../use-title.ts';
import './imports.css';
import { DataTable } from '../widgets/data-table.tsx';
import { submitting } from '../widgets/form-request.ts';

export default function Imports() {
  useTitle('Import');
  const project = useProject();
  const fileId = useId();
  const [source, setSource] = useState<ImportSource>('canny');
  const [file, setFile] = useState<File>();
  const [columns, setColumns] = useState('');
  const [statusMap, setStatusMap] = useState<Record<string, StatusTarget>>({});
  const [report, setReport] = useState<ImportReport>();
  const map = Object.entries(statusMap)
    .map(([from, to]) => `${from.replaceAll(',', ' ')}=${to}`)
    .join(',');
  /** The status map the report on screen was made with: another one needs a new dry run. */
  const [reportMap, setReportMap] = useState('');
  const run = useMutation({
    mutationFn: ({ dryRun }: { dryRun: boolean; map: string }) =>
      runImport(project.id, file!, {
        source,
        dryRun,
        filename: file!.name,
        map,
        columns: source === 'csv' ? columns : undefined,
      }),
    onSuccess: (answer, { map: used }) => {
      setReport(answer);
      setReportMap(used);
    },
  });
  const pending = map !== reportMap;
  const dryRun = () => {
    if (file) run.mutate({ dryRun: true, map });
  };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && event.key.toLowerCase() === 'd' && file && !run.isPending) {
        event.preventDefault();
        run.mutate({ dryRun: true, map });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [file, run, map]);

  if (!canAdminister(project)) {
    return (
      <div className="stack">
        <h1>Import</h1>
        <p>Only the project's admins and owners can import.</p>
      </div>
    );
  }
  const submit = submitting(dryRun);
  const changed = (next: Partial<{ source: ImportSource; file: File | undefined }>) => {
    if (next.source) setSource(next.source);
    if ('file' in next) setFile(next.file);
    setReport(undefined);
    setStatusMap({});
    setReportMap('');
    run.reset();
  };
  return (
    <div className="stack">
      <h1>Import</h1>
      <p className="muted">
        Ideas, votes, comments and people from another tool, with their authors and dates; its boards, categories and
        labels become tags, its changelog entries yours. Run the dry run first; a second import of the same export
        updates instead of duplicating, and nobody is e-mailed about imported history.
      </p>
      <div className="imports-panes">
        <form className="card stack" onSubmit={submit} aria-labelledby="import-form-title">
          <h2 id="import-form-title">Export</h2>
          <SelectField label="From" value={source} options={SOURCES} onChange={(value) => changed({ source: value })} />
          <div className="field">
            <label htmlFor={fileId}>Export file</label>
            <input
              id={fileId}
              type="file"
              accept=".json,.jsonl,.csv,.zip"
              onChange={(event) => changed({ file: event.target.files?.[0] })}
            />
          </div>
          {source === 'csv' ? (
            <Field
              label="Columns"
              description="Which header holds each field: title=Summary,description=Body,status=State,authorEmail=Reporter,createdAt=Opened,voters=Supporters"
              value={columns}
              onChange={setColumns}
            />
          ) : null}
          {run.error ? <ErrorNote error={run.error} /> : null}
          <div className="row">
            <Button type="submit" variant="secondary" isDisabled={!file} busy={run.isPending}>
              Dry run
            </Button>
            <Button
              isDisabled={!file || !report?.dryRun || pending}
              busy={run.isPending}
              onPress={() => run.mutate({ dryRun: false, map })}
            >
              Import
            </Button>
          </div>
        </form>
        <section className="card stack imports-report" aria-labelledby="import-report-title">
          <h2 id="import-report-title">Report</h2>
          {report ? (
            <Report
              report={report}
              pending={pending}
              statusMap={statusMap}
              onMap={(from, to) => setStatusMap({ ...statusMap, [from]: to })}
            />
          ) : (
            <p className="muted">
              Choose the export and run the dry run: what would happen shows here, nothing is stored.
            </p>
          )}
        </section>
      </div>
    </div>
  );
}

/** The report's sections that are counts (ideas, votes, …, tags, changelog): every one is a row. */
type CountSection = {
  [K in keyof ImportReport]: ImportReport[K] extends { created: number } ? K : never;
}[keyof ImportReport];
type CountColumn = 'created' | 'updated' | 'unchanged' | 'matched' | 'skipped';
const COUNT_COLUMNS: readonly CountColumn[] = ['created', 'updated', 'unchanged', 'matched', 'skipped'];

/** Row names; `satisfies` makes a section the report gains fail the type check until it has a row. */
const SECTIONS = {
  ideas: 'Ideas',
  votes: 'Votes',
  comments: 'Comments',
  people: 'People',
  tags: 'Tags (boards, categories, labels)',
  changelog: 'Changelog entries',
} satisfies Record<CountSection, string>;

function Report({
  report,
  pending,
  statusMap,
  onMap,
}: {
  report: ImportReport;
  pending: boolean;
  statusMap: Record<string, StatusTarget>;
  onMap: (from: string, to: StatusTarget) => void;
}) {
  const counts = (Object.keys(SECTIONS) as CountSection[]).map((section) => {
    const numbers: Partial<Record<CountColumn, number>> = report[section];
    return { section, cells: COUNT_COLUMNS.map((column) => numbers[column] ?? '–') };
  });
  return (
    <div className="stack">
      {report.dryRun ? (
        <Note>
          Dry run: nothing was stored.
          {pending ? ' Run the dry run again to see your status changes.' : ' Import does this:'}
        </Note>
      ) : (
        <Note>Imported.</Note>
      )}
      <div>
        <DataTable
          className="imports-counts"
          caption={<>What {report.dryRun ? 'an import would do' : 'the import did'}</>}
          captionClassName="muted"
          wrapClassName={null}
          columns={['Items', 'Created', 'Updated', 'Unchanged', 'Matched', 'Skipped']}
        >
          {counts.map(({ section, cells }) => (
            <tr key={section}>
              <th scope="row">{SECTIONS[section]}</th>
              {cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </DataTable>
      </div>
      {report.ideas.truncated > 0 ? (
        <p>{report.ideas.truncated} ideas have a title or description longer than Signpost keeps; they are cut.</p>
      ) : null}
      {report.statuses.length > 0 ? (
        <div>
          <DataTable
            caption="Statuses: change where an idea lands, then run the dry run again"
            captionClassName="muted"
            wrapClassName={null}
            columns={['In the export', 'Ideas', 'Becomes']}
          >
            {report.statuses.map((row) => (
              <tr key={row.from}>
                <th scope="row">
                  {row.from}
                  {row.by === 'fallback' ? <span className="muted"> (unknown)</span> : null}
                </th>
                <td>{row.ideas}</td>
                <td>
                  <select
                    aria-label={`Status for “${row.from}”`}
                    value={statusMap[row.from] ?? row.to}
                    onChange={(event) => onMap(row.from, event.target.value as StatusTarget)}
                  >
                    {STATUS_TARGETS.map((target) => (
                      <option key={target} value={target}>
                        {target === 'skip' ? 'skip (leave out)' : target}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      ) : null}
      {report.skippedTotal > 0 ? (
        <div>
          <DataTable
            caption={
              <>
                Skipped ({report.skippedTotal}
                {report.skippedTotal > report.skipped.length ? `, the first ${report.skipped.length} shown` : ''})
              </>
            }
            captionClassName="muted"
            wrapClassName={null}
            columns={['Where', 'What', 'Why']}
          >
            {report.skipped.map((row) => (
              <tr key={`${row.file}:${row.row}:${row.kind}:${row.id}`}>
                <td>
                  {row.file} row {row.row}
                </td>
                <td>
                  {row.kind} {row.id ?? ''}
                </td>
                <td>{row.reason}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      ) : null}
    </div>
  );
}
