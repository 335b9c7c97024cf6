/**
 * Error records of the project (the spec's dedup records: title + errorType within an hour; the
 * Errors screen, error-groups.tsx, lists the groups they belong to): occurrence count, first and last seen, severity, environment,
 * release and status, filtered through the URL's search parameters (severity, environment,
 * release, status, time, text) so a view can be shared and the back button returns to it.
 */
import { api, unwrap } from '../api/client.ts';
import { ERROR_STATUS_OPTIONS, type ErrorStatus, type ErrorSummary, errorsKey } from '../api/reports.ts';
import { type ReportKind, ReportList } from '../widgets/report-list.tsx';

const ERRORS: ReportKind<ErrorSummary, ErrorStatus> = {
  title: 'Error records',
  plural: 'errors',
  count: (total) => (total === 1 ? '1 error group' : `${total} error groups`),
  tableLabel: 'Error groups',
  titleHeader: 'Error',
  occurrencesHeader: 'Occurrences',
  path: 'errors',
  searchPlaceholder: 'Title, message, stack trace, type or URL',
  textFilters: [{ name: 'release', label: 'Release', placeholder: 'e.g. 1.4.2' }],
  statusOptions: ERROR_STATUS_OPTIONS,
  columns: [
    { header: 'Release', after: 'environment', cell: (row) => row.release ?? <span className="muted">–</span> },
  ],
  seen: (row) => row.group,
  empty: (
    <p>
      No errors yet. Apps report them with <code>POST /api/public/v1/errors</code> and a key with the{' '}
      <code>errors:write</code> scope; repeats within an hour are counted on one group.
    </p>
  ),
  queryKey: errorsKey,
  load: async (projectId, query) => {
    const page = await unwrap(api.GET('/projects/{projectId}/errors', { params: { path: { projectId }, query } }));
    return { rows: page.errors, total: page.total, counts: page.counts };
  },
};

export default function Errors() {
  return <ReportList kind={ERRORS} />;
}
