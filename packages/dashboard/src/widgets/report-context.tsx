/**
 * What the in-app widget sent with a report besides its text (issue 35): the page it came from,
 * the app release, the error the page last reported (linked to its error group) and the
 * screenshots the user chose to send. The images come from the management API, so only the team
 * sees them.
 */
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import type { ManagedFeature } from '../api/features.ts';
import { QueryView } from './states.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

export function ReportContext({ feature }: { feature: ManagedFeature }) {
  const metadata = (feature.metadata ?? {}) as Record<string, unknown>;
  const url = text(metadata['url']);
  const release = text(metadata['release']);
  const errorId = text(metadata['errorEventId']);
  const attachments = useApiQuery(['attachments', feature.projectId, feature.id], () =>
    api.GET('/projects/{projectId}/features/{featureId}/attachments', {
      params: { path: { projectId: feature.projectId, featureId: feature.id } },
    }),
  );
  const shown = url || release || errorId || (attachments.data?.attachments.length ?? 0) > 0;
  if (!shown) return null;
  return (
    <section className="card stack" aria-labelledby="context-title">
      <h2 id="context-title">Sent from the app</h2>
      <dl className="report-context">
        {url ? (
          <>
            <dt>Page</dt>
            <dd>
              <a href={/^https?:\/\//.test(url) ? url : undefined} rel="noreferrer noopener" target="_blank">
                {url}
              </a>
            </dd>
          </>
        ) : null}
        {release ? (
          <>
            <dt>Release</dt>
            <dd>{release}</dd>
          </>
        ) : null}
        {errorId ? (
          <>
            <dt>Last error</dt>
            <dd>
              <Link to={`/projects/${feature.projectId}/errors/${encodeURIComponent(errorId)}`}>{errorId}</Link>
            </dd>
          </>
        ) : null}
      </dl>
      <QueryView query={attachments} what="screenshots">
        {(data) =>
          data.attachments.length === 0 ? null : (
            <ul className="report-shots">
              {data.attachments.map((attachment, index) => {
                const src = `/api/v1/projects/${encodeURIComponent(feature.projectId)}/features/${encodeURIComponent(feature.id)}/attachments/${encodeURIComponent(attachment.id)}`;
                return (
                  <li key={attachment.id}>
                    <a href={src} target="_blank" rel="noreferrer">
                      <img src={src} alt={`Screenshot ${index + 1} sent with the report`} loading="lazy" />
                    </a>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}
