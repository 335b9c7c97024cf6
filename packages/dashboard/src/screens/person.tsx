/** One person of the project: who they are, their company, and their ideas, votes and comments. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { statusLabel, when } from '../api/features.ts';
import { companyLine, personKey, personName } from '../api/people.ts';
import { useProject } from '../project-layout.tsx';
import { useTitle } from '../use-title.ts';
import { QueryView } from '../widgets/states.tsx';

export default function PersonScreen() {
  const project = useProject();
  const { personId = '' } = useParams();
  const person = useQuery({
    queryKey: personKey(project.id, personId),
    queryFn: () =>
      unwrap(
        api.GET('/projects/{projectId}/people/{personId}', { params: { path: { projectId: project.id, personId } } }),
      ),
  });
  useTitle(person.data ? personName(person.data.person) : 'Person');
  const idea = (id: string) => `/projects/${project.id}/inbox/${id}`;
  return (
    <div className="stack">
      <p>
        <Link to={`/projects/${project.id}/people`}>← People</Link>
      </p>
      <QueryView query={person} what="the person">
        {({ person: who, ideas, votes, comments }) => (
          <>
            <header className="stack">
              <h1>{personName(who)}</h1>
              <dl className="facts">
                <dt>E-mail</dt>
                <dd>{who.email ?? '(unknown)'}</dd>
                <dt>Company</dt>
                <dd>{companyLine(who.company) || '(none)'}</dd>
                {who.externalId ? (
                  <>
                    <dt>Id in the app</dt>
                    <dd>{who.externalId}</dd>
                  </>
                ) : null}
                <dt>First seen</dt>
                <dd>{when(who.firstSeenAt)}</dd>
                <dt>Last seen</dt>
                <dd>{when(who.lastSeenAt)}</dd>
              </dl>
            </header>
            <section className="card stack" aria-labelledby="person-ideas">
              <h2 id="person-ideas">Ideas ({ideas.length})</h2>
              {ideas.length === 0 ? (
                <p className="muted">None submitted.</p>
              ) : (
                <ul>
                  {ideas.map((row) => (
                    <li key={row.id}>
                      <Link to={idea(row.id)}>{row.title}</Link> ({statusLabel(row.status)}, {row.voteCount} votes)
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="card stack" aria-labelledby="person-votes">
              <h2 id="person-votes">Votes ({votes.length})</h2>
              {votes.length === 0 ? (
                <p className="muted">No votes.</p>
              ) : (
                <ul>
                  {votes.map((row) => (
                    <li key={row.id}>
                      <Link to={idea(row.id)}>{row.title}</Link> ({statusLabel(row.status)}), voted{' '}
                      <time dateTime={row.votedAt}>{when(row.votedAt)}</time>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className="card stack" aria-labelledby="person-comments">
              <h2 id="person-comments">Comments ({comments.length})</h2>
              {comments.length === 0 ? (
                <p className="muted">No comments.</p>
              ) : (
                <ul>
                  {comments.map((row) => (
                    <li key={row.id}>
                      On <Link to={idea(row.featureId)}>{row.featureTitle}</Link>,{' '}
                      <time dateTime={row.createdAt}>{when(row.createdAt)}</time>: “{row.body.slice(0, 200)}”
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </QueryView>
    </div>
  );
}
