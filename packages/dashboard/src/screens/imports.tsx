/**
 * Import from another tool (issue 36): pick the source and the export file, run a dry run, read
 * what would be created, matched and skipped, change the status table where the defaults are
 * wrong (each row's "becomes" feeds the next run's map), then import. Admins only; the form on
 * the left, the report on the right. Shortcut: Alt+D runs the dry run again.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    dryRun();
  };
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
        Ideas, votes, comments and people from another tool, with their authors and dates. Run the dry run first; a
        second import of the same export updates instead of duplicating, and nobody is e-mailed about imported history.
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
  const counts: [string, number | string, number | string, number | string, number | string, number | string][] = [
    ['Ideas', report.ideas.created, report.ideas.updated, report.ideas.unchanged, '–', report.ideas.skipped],
    ['Votes', report.votes.created, '–', report.votes.unchanged, '–', report.votes.skipped],
    [
      'Comments',
      report.comments.created,
      report.comments.updated,
      report.comments.unchanged,
      '–',
      report.comments.skipped,
    ],
    ['People', report.people.created, '–', '–', report.people.matched, '–'],
  ];
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
        <table className="table imports-counts">
          <caption className="muted">What {report.dryRun ? 'an import would do' : 'the import did'}</caption>
          <thead>
            <tr>
              <th scope="col">Items</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
              <th scope="col">Unchanged</th>
              <th scope="col">Matched</th>
              <th scope="col">Skipped</th>
            </tr>
          </thead>
          <tbody>
            {counts.map(([name, ...cells]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                {cells.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                  <td key={index}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {report.ideas.truncated > 0 ? (
        <p>{report.ideas.truncated} ideas have a title or description longer than Signpost keeps; they are cut.</p>
      ) : null}
      {report.statuses.length > 0 ? (
        <div>
          <table className="table">
            <caption className="muted">Statuses: change where an idea lands, then run the dry run again</caption>
            <thead>
              <tr>
                <th scope="col">In the export</th>
                <th scope="col">Ideas</th>
                <th scope="col">Becomes</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      ) : null}
      {report.skippedTotal > 0 ? (
        <div>
          <table className="table">
            <caption className="muted">
              Skipped ({report.skippedTotal}
              {report.skippedTotal > report.skipped.length ? `, the first ${report.skipped.length} shown` : ''})
            </caption>
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col">What</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
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
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
