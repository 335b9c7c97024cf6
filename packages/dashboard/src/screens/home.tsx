/**
 * Home: what needs the signed-in account's attention (GET /me/attention): new ideas to triage and
 * the most-voted open ideas across its projects, the projects with items held for moderation, an unverified e-mail address, and pending invites
 * of the teams it administers; each leads where it is dealt with. Then the latest release of each
 * of its first projects, with its health (widgets/latest-releases.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Account, api, unwrap } from '../api/client.ts';
import { statusLabel } from '../api/features.ts';
import type { Attention, AttentionIdea } from '../api/projects.ts';
import { RequireAccount } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { LatestReleases } from '../widgets/latest-releases.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './projects.css';

export const ATTENTION_KEY = ['me', 'attention'] as const;

export default function Home() {
  useTitle('Home');
  return <RequireAccount>{(account) => <HomeScreen account={account} />}</RequireAccount>;
}

function HomeScreen({ account }: { account: Account }) {
  const attention = useQuery({ queryKey: ATTENTION_KEY, queryFn: () => unwrap(api.GET('/me/attention')) });
  return (
    <section className="stack" aria-labelledby="home-title">
      <h1 id="home-title">Welcome{account.name ? `, ${account.name}` : ''}</h1>
      <p>
        You are signed in as <strong>{account.email}</strong>.
      </p>
      <QueryView query={attention} what="what needs your attention">
        {(data) => <NeedsAttention data={data} />}
      </QueryView>
      <LatestReleases />
      <ul className="links">
        <li>
          <Link to="/projects">Your projects</Link> and <Link to="/teams">your teams</Link>
        </li>
        <li>
          <Link to="/account">Your account</Link>: e-mail status, name
        </li>
        <li>
          <a href="/api/v1/docs">Management API reference</a>
        </li>
      </ul>
    </section>
  );
}

function NeedsAttention({ data }: { data: Attention }) {
  const nothing =
    data.emailVerified &&
    data.ideasToTriage.length === 0 &&
    data.mostVotedOpenIdeas.length === 0 &&
    data.awaitingModeration.length === 0 &&
    data.pendingInvites.length === 0 &&
    data.errorGroups.length === 0;
  return (
    <section className="stack" aria-labelledby="attention-title">
      <h2 id="attention-title">Needs attention</h2>
      {nothing ? (
        <Empty>
          <p>Nothing needs your attention right now.</p>
          <p>
            New ideas and bugs from your apps and boards show up here for triage. No project yet?{' '}
            <Link to="/projects">Create one</Link>.
          </p>
        </Empty>
      ) : null}
      {data.emailVerified ? null : (
        <p className="note note-warn">
          Your e-mail address is not verified yet. <Link to="/account">Verify it from your account</Link>.
        </p>
      )}
      {data.awaitingModeration.length > 0 ? (
        <section className="card stack" aria-labelledby="moderation-title">
          <h3 id="moderation-title">Waiting for moderation</h3>
          <ul className="attention-list">
            {data.awaitingModeration.map((row) => (
              <li key={row.projectId}>
                <Link to={`/projects/${row.projectId}/moderation`}>{row.projectName}</Link>
                <span className="muted">
                  {row.count === 1 ? '1 held idea or comment' : `${row.count} held ideas or comments`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {data.ideasToTriage.length > 0 ? (
        <IdeaList
          id="triage"
          title="Waiting for triage"
          ideas={data.ideasToTriage}
          detail={(idea) => `received ${new Date(idea.createdAt).toLocaleDateString()}`}
        />
      ) : null}
      {data.mostVotedOpenIdeas.length > 0 ? (
        <IdeaList
          id="most-voted"
          title="Most-voted open ideas"
          ideas={data.mostVotedOpenIdeas}
          detail={(idea) =>
            `${idea.voteCount} ${idea.voteCount === 1 ? 'vote' : 'votes'} · ${statusLabel(idea.status)}`
          }
        />
      ) : null}
      {data.errorGroups.length > 0 ? (
        <section className="card stack" aria-labelledby="error-groups-title">
          <h3 id="error-groups-title">New and regressed errors</h3>
          <ul className="attention-list">
            {data.errorGroups.map((group) => (
              <li key={group.id}>
                <Link to={`/projects/${group.projectId}/errors/groups/${group.id}`}>{group.title}</Link>
                <span className="muted">
                  {group.projectName} · {group.status === 'regressed' ? 'regressed' : 'new'} · {group.sdkEnvironment} ·{' '}
                  {group.events} {group.events === 1 ? 'event' : 'events'}, last{' '}
                  {new Date(group.lastSeenAt).toLocaleString()}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {data.pendingInvites.length > 0 ? (
        <section className="card stack" aria-labelledby="invites-title">
          <h3 id="invites-title">Pending invites</h3>
          <ul className="attention-list">
            {data.pendingInvites.map((invite) => (
              <li key={invite.id}>
                <Link to={`/teams/${invite.teamId}`}>
                  {invite.email} to {invite.teamName}
                </Link>
                <span className="muted">
                  as {invite.role}, expires {new Date(invite.expiresAt).toLocaleDateString()}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}

function IdeaList({
  id,
  title,
  ideas,
  detail,
}: {
  id: string;
  title: string;
  ideas: AttentionIdea[];
  detail: (idea: AttentionIdea) => string;
}) {
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <ul className="attention-list">
        {ideas.map((idea) => (
          <li key={idea.id}>
            <Link to={`/projects/${idea.projectId}/inbox/${idea.id}`}>{idea.title}</Link>
            <span className="muted">
              {idea.projectName}
              {idea.environment === 'test' ? ' (test)' : ''} · {detail(idea)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
