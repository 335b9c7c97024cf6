/**
 * One bug report: its message, stack trace, metadata and counts; its status (admins); and the
 * idea it is linked to, or "Create idea from this bug" (POST /bugs/{id}/feature), which links
 * them both ways (the idea's page lists its linked bug reports).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { type BugRecord, bugsKey, statusName } from '../api/reports.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { Fact, ReportSummary } from '../widgets/report-summary.tsx';
import { TriageStatus } from '../widgets/triage.tsx';
import './reports.css';
import { ReportPage } from '../widgets/report-page.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

export default function BugReport() {
  const project = useProject();
  const { reportId = '' } = useParams();
  const bug = useApiQuery([...bugsKey(project.id), 'one', reportId], () =>
    api.GET('/projects/{projectId}/bugs/{reportId}', { params: { path: { projectId: project.id, reportId } } }),
  );
  useTitle(bug.data ? `Bug: ${bug.data.title}` : 'Bug report');
  return (
    <ReportPage back={`/projects/${project.id}/bugs`} backLabel="All bug reports" query={bug} what="the bug report">
      {(record) => <BugView record={record} admin={canAdminister(project)} />}
    </ReportPage>
  );
}

function BugView({ record, admin }: { record: BugRecord; admin: boolean }) {
  const project = useProject();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const idea = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/bugs/{reportId}/feature', {
          params: { path: { projectId: project.id, reportId: record.id } },
        }),
      ),
    onSuccess: () => setNote('Idea created and linked to this bug report.'),
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: bugsKey(project.id) });
      queryClient.invalidateQueries({ queryKey: ['features', project.id] });
    },
  });
  return (
    <>
      <ReportSummary record={record} occurrencesName="Reports" seen={record}>
        <Fact name="Type" value={record.bugType} />
        <Fact name="Channel" value={record.channel} />
      </ReportSummary>
      <section className="card stack" aria-labelledby="idea-title">
        <h2 id="idea-title">Idea</h2>
        {record.featureId ? (
          <p>
            Linked to an idea in the inbox:{' '}
            <Link to={`/projects/${project.id}/inbox/${record.featureId}`}>Open the linked idea</Link>
          </p>
        ) : admin ? (
          <>
            <p className="muted">
              Turn this report into an idea (a bug in the inbox) to plan, discuss and ship the fix; both stay linked.
            </p>
            <div className="report-actions">
              <Button variant="primary" busy={idea.isPending} onPress={() => idea.mutate()}>
                Create idea from this bug
              </Button>
            </div>
          </>
        ) : (
          <p className="muted">Not linked to an idea yet. An admin can create one from this report.</p>
        )}
        {idea.error ? <ErrorNote error={idea.error} /> : null}
      </section>
      {admin ? (
        <TriageStatus
          status={record.status}
          send={(status) =>
            unwrap(
              api.PATCH('/projects/{projectId}/bugs/{reportId}', {
                params: { path: { projectId: project.id, reportId: record.id } },
                body: { status },
              }),
            )
          }
          onSettled={() => queryClient.invalidateQueries({ queryKey: bugsKey(project.id) })}
          done={{
            resolved: `Status set to ${statusName('resolved')}.`,
            ignored: `Status set to ${statusName('ignored')}.`,
            open: `Status set to ${statusName('open')}.`,
          }}
        />
      ) : null}
      {note ? <Note>{note}</Note> : null}
      <section className="card stack" aria-labelledby="trace-title">
        <h2 id="trace-title">Stack trace</h2>
        {record.stackTrace ? (
          <pre className="report-json">{record.stackTrace}</pre>
        ) : (
          <p className="muted">No stack trace was sent with this report.</p>
        )}
      </section>
      {record.metadata ? (
        <section className="card stack" aria-labelledby="meta-title">
          <h2 id="meta-title">Metadata</h2>
          <pre className="report-json">{JSON.stringify(record.metadata, null, 2)}</pre>
        </section>
      ) : null}
    </>
  );
}
