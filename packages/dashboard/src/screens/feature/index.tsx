/**
 * One idea as the team triages it, the inbox's right-hand pane (and its only pane on a narrow
 * screen): what was submitted (title and description editable), its status, visibility and
 * developer notes, tags, voters, comments with the team's reply box, linked bug reports and
 * error groups, merging and deleting. Admins change things; members read. Each part is a small
 * component of this folder.
 */
import { useEffect } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { featureKey } from '../../api/features.ts';
import { useProject } from '../../project-layout.tsx';
import { FoundView } from '../../widgets/states.tsx';
import '../inbox/inbox.css';
import './feature.css';
import { FeatureView } from './view.tsx';
import { useApiQuery } from '../../api/use-api-query.ts';

export function FeatureDetail({
  featureId,
  inbox,
  note,
  onTitle,
}: {
  featureId: string;
  /** The inbox's address with its view (search, filters, sort, page): where "Back" leads. */
  inbox: string;
  /** Said once on arrival (after a merge). */
  note?: string | undefined;
  onTitle?: (title: string) => void;
}) {
  const project = useProject();
  const feature = useApiQuery(featureKey(project.id, featureId), () =>
    api.GET('/projects/{projectId}/features/{featureId}', {
      params: { path: { projectId: project.id, featureId } },
    }),
  );
  const title = feature.data?.title;
  useEffect(() => {
    if (title) onTitle?.(title);
  }, [title, onTitle]);
  return (
    <div className="feature stack">
      <p>
        <Link to={inbox}>← Back to the inbox</Link>
      </p>
      <FoundView
        query={feature}
        title="Idea"
        what="the idea"
        notFound="This idea does not exist in this project: it may have been merged into another or deleted."
      >
        {(data) => <FeatureView key={data.id} feature={data} note={note} inbox={inbox} />}
      </FoundView>
    </div>
  );
}
