/** One idea's detail: its header, then each part of triage as a card. */
import { api } from '../../api/client.ts';
import { type ManagedFeature, statusLabel } from '../../api/features.ts';
import { canAdminister, useProject } from '../../project-layout.tsx';
import { Note } from '../../ui.tsx';
import { ReportContext } from '../../widgets/report-context.tsx';
import { FeatureErrorLinksSection } from '../../widgets/release-hub.tsx';
import { Delete } from './delete.tsx';
import { Description } from './edit.tsx';
import { LinkedBugs } from './linked-bugs.tsx';
import { MarkTriaged } from './mark-triaged.tsx';
import { Merge } from './merge.tsx';
import { Comments, Voters } from './people.tsx';
import { Tags } from './tags.tsx';
import { Triage } from './triage.tsx';
import { When } from '../../widgets/when.tsx';
import { useApiQuery } from '../../api/use-api-query.ts';

export function FeatureView({
  feature,
  note,
  inbox,
}: {
  feature: ManagedFeature;
  note?: string | undefined;
  inbox: string;
}) {
  const project = useProject();
  const admin = canAdminister(project);
  const board = useApiQuery(['board', project.id], () =>
    api.GET('/projects/{projectId}/board', { params: { path: { projectId: project.id } } }),
  );
  const boardLink =
    board.data?.enabled && !feature.internal && feature.environment === 'live'
      ? `${board.data.url.replace(/\/$/, '')}/ideas/${feature.id}`
      : null;
  return (
    <>
      <header className="stack feature-head">
        <h1>{feature.title}</h1>
        <p className="row muted">
          <span>{feature.type === 'bug' ? 'Bug' : 'Feature request'}</span>
          <span aria-hidden="true">·</span>
          <span>
            Submitted <When at={feature.createdAt} />
            {feature.contactEmail ? ` by ${feature.contactEmail}` : ''}
            {feature.channel ? ` through the ${feature.channel}` : ''}
          </span>
          <span aria-hidden="true">·</span>
          <span>
            {feature.voteCount === 1 ? '1 vote' : `${feature.voteCount} votes`},{' '}
            {feature.commentCount === 1 ? '1 comment' : `${feature.commentCount} comments`}
          </span>
        </p>
        <p className="row">
          <span className={`badge badge-muted status status-${feature.status}`}>{statusLabel(feature.status)}</span>
          {feature.internal ? <span className="badge badge-warn">Internal</span> : null}
          {feature.environment === 'test' ? <span className="badge badge-muted">Test key</span> : null}
          {boardLink ? <a href={boardLink}>View on the public board</a> : null}
        </p>
        <MarkTriaged feature={feature} admin={admin} />
        {note ? <Note>{note}</Note> : null}
      </header>
      <Description feature={feature} admin={admin} />
      <ReportContext feature={feature} />
      {feature.statusResponse ? (
        <section className="card stack" aria-labelledby="response-title">
          <h2 id="response-title">Official response</h2>
          <p className="feature-description">{feature.statusResponse}</p>
        </section>
      ) : null}
      <Triage feature={feature} admin={admin} />
      <Tags feature={feature} admin={admin} />
      <Voters feature={feature} admin={admin} />
      <Comments feature={feature} admin={admin} />
      <LinkedBugs feature={feature} />
      <FeatureErrorLinksSection featureId={feature.id} />
      {admin ? <Merge feature={feature} /> : null}
      {admin ? <Delete feature={feature} inbox={inbox} /> : null}
    </>
  );
}
