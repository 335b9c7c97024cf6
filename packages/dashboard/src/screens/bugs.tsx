/**
 * Bug reports of the project: occurrence count, first and last seen, severity, environment,
 * status and the linked idea, filtered through the URL's search parameters (severity,
 * environment, status, time, text).
 */
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { type BugSummary, bugsKey } from '../api/reports.ts';
import { type ReportKind, ReportList } from '../widgets/report-list.tsx';

const BUG_STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'ignored', label: 'Ignored' },
] as const;

const BUGS: ReportKind<BugSummary, BugSummary['status']> = {
  title: 'Bug reports',
  plural: 'bug reports',
  count: (total) => (total === 1 ? '1 bug report' : `${total} bug reports`),
  tableLabel: 'Bug reports',
  titleHeader: 'Bug',
  occurrencesHeader: 'Reports',
  path: 'bugs',
  searchPlaceholder: 'Title, message, stack trace or type',
  statusOptions: BUG_STATUS_OPTIONS,
  columns: [
    {
      header: 'Idea',
      after: 'status',
      cell: (row, projectId) =>
        row.featureId ? (
          <Link to={`/projects/${projectId}/inbox/${row.featureId}`}>
            Open idea<span className="visually-hidden"> for {row.title}</span>
          </Link>
        ) : (
          <span className="muted">–</span>
        ),
    },
  ],
  seen: (row) => row,
  empty: (
    <p>
      No bug reports yet. They arrive from the widget, the SDKs and <code>POST /api/public/v1/bugs</code>.
    </p>
  ),
  queryKey: bugsKey,
  load: async (projectId, query) => {
    const page = await unwrap(api.GET('/projects/{projectId}/bugs', { params: { path: { projectId }, query } }));
    return { rows: page.bugs, total: page.total, counts: page.counts };
  },
};

export default function Bugs() {
  return <ReportList kind={BUGS} />;
}
