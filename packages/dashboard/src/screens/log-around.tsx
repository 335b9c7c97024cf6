/**
 * The lines of every log group around one line (issue 32), as an incident is read: what else the
 * app logged in the seconds before and after. Oldest first, the line it was opened from marked;
 * the window (10 seconds to 10 minutes either side) in the URL (`?seconds=`).
 */
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import { logsKey } from '../api/logs.ts';
import { useApiQuery } from '../api/use-api-query.ts';
import { useProject } from '../project-layout.tsx';
import { useTitle } from '../use-title.ts';
import { FoundView } from '../widgets/states.tsx';
import { LineTable } from './log-lines.tsx';
import './logs.css';

const WINDOWS = [
  { seconds: 10, label: '10 seconds' },
  { seconds: 60, label: '1 minute' },
  { seconds: 600, label: '10 minutes' },
] as const;

export default function LogAroundPage() {
  const project = useProject();
  const { lineId = '' } = useParams();
  const [search] = useSearchParams();
  const asked = Number(search.get('seconds'));
  // One minute unless the URL names another of the windows.
  const chosen = WINDOWS.find((w) => w.seconds === asked) ?? WINDOWS[1];
  const seconds = chosen.seconds;
  const around = useApiQuery([...logsKey(project.id), 'around', lineId, seconds], () =>
    api.GET('/projects/{projectId}/logs/lines/{lineId}/around', {
      params: { path: { projectId: project.id, lineId }, query: { seconds } },
    }),
  );
  useTitle('Lines around a log line');
  return (
    <div className="log-around stack">
      <p>
        <Link to={`/projects/${project.id}/logs?show=lines`}>← Back to the lines</Link>
      </p>
      <FoundView
        query={around}
        title="Lines around a log line"
        what="the lines around this line"
        notFound="This log line does not exist in this project (or is past its retention)."
      >
        {(data) => (
          <>
            <h1>Lines around {data.line.message || 'a log line'}</h1>
            <nav className="row" aria-label="Either side of the line">
              {WINDOWS.map((w) => (
                <Link
                  key={w.seconds}
                  className={`button ${w.seconds === seconds ? 'button-primary' : 'button-secondary'}`}
                  aria-current={w.seconds === seconds ? 'true' : undefined}
                  to={{ search: `?seconds=${w.seconds}` }}
                  replace
                >
                  ± {w.label}
                </Link>
              ))}
            </nav>
            <p className="muted">
              {data.lines.length} lines of every group within {chosen.label} either side, oldest first; the line you
              came from is marked.
            </p>
            <LineTable rows={data.lines} projectId={project.id} withMessage current={data.line.id} />
          </>
        )}
      </FoundView>
    </div>
  );
}
