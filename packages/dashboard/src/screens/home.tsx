/**
 * Home: what needs the signed-in account's attention (GET /me/attention): new ideas to triage and
 * the most-voted open ideas across its projects, the projects with items held for moderation, an unverified e-mail address, and pending invites
 * of the teams it administers; each leads where it is dealt with. Then the latest release of each
 * of its first projects, with its health (widgets/latest-releases.tsx).
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type Account, api } from '../api/client.ts';
import { statusLabel } from '../api/features.ts';
import type { Attention, AttentionIdea } from '../api/projects.ts';
import { RequireAccount } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { LatestReleases } from '../widgets/latest-releases.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './projects.css';
import { useApiQuery } from '../api/use-api-query.ts';

export const ATTENTION_KEY = ['me', 'attention'] as const;

export default function Home() {
  useTitle('Home');
  return <RequireAccount>{(account) => <HomeScreen account={account} />}</RequireAccount>;
}

function HomeScreen({ account }: { account: Account }) {
  const attention = useApiQuery(ATTENTION_KEY, () => api.GET('/me/attention'));
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
      {attentionLists(data).map((list) =>
        list.items.length > 0 ? (
          <AttentionList key={list.id} id={list.id} title={list.title} items={list.items} />
        ) : null,
      )}
    </section>
  );
}

/** One thing to attend to: where it is dealt with, and what it is in a few words. */
interface AttentionItem {
  key: string;
  to: string;
  label: string;
  detail: ReactNode;
}

/** Home's lists, in order: held items, ideas to triage, the most-voted, new errors, invites. */
function attentionLists(data: Attention): { id: string; title: string; items: AttentionItem[] }[] {
  return [
    {
      id: 'moderation',
      title: 'Waiting for moderation',
      items: data.awaitingModeration.map((row) => ({
        key: row.projectId,
        to: `/projects/${row.projectId}/moderation`,
        label: row.projectName,
        detail: row.count === 1 ? '1 held idea or comment' : `${row.count} held ideas or comments`,
      })),
    },
    {
      id: 'triage',
      title: 'Waiting for triage',
      items: data.ideasToTriage.map((idea) =>
        ideaItem(idea, `received ${new Date(idea.createdAt).toLocaleDateString()}`),
      ),
    },
    {
      id: 'most-voted',
      title: 'Most-voted open ideas',
      items: data.mostVotedOpenIdeas.map((idea) =>
        ideaItem(idea, `${idea.voteCount} ${idea.voteCount === 1 ? 'vote' : 'votes'} · ${statusLabel(idea.status)}`),
      ),
    },
    {
      id: 'error-groups',
      title: 'New and regressed errors',
      items: data.errorGroups.map((group) => ({
        key: group.id,
        to: `/projects/${group.projectId}/errors/groups/${group.id}`,
        label: group.title,
        detail: (
          <>
            {group.projectName} · {group.status === 'regressed' ? 'regressed' : 'new'} · {group.sdkEnvironment} ·{' '}
            {group.events} {group.events === 1 ? 'event' : 'events'}, last {new Date(group.lastSeenAt).toLocaleString()}
          </>
        ),
      })),
    },
    {
      id: 'invites',
      title: 'Pending invites',
      items: data.pendingInvites.map((invite) => ({
        key: invite.id,
        to: `/teams/${invite.teamId}`,
        label: `${invite.email} to ${invite.teamName}`,
        detail: `as ${invite.role}, expires ${new Date(invite.expiresAt).toLocaleDateString()}`,
      })),
    },
  ];
}

function ideaItem(idea: AttentionIdea, detail: string): AttentionItem {
  return {
    key: idea.id,
    to: `/projects/${idea.projectId}/inbox/${idea.id}`,
    label: idea.title,
    detail: `${idea.projectName}${idea.environment === 'test' ? ' (test)' : ''} · ${detail}`,
  };
}

function AttentionList({ id, title, items }: { id: string; title: string; items: AttentionItem[] }) {
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <ul className="attention-list">
        {items.map((item) => (
          <li key={item.key}>
            <Link to={item.to}>{item.label}</Link>
            <span className="muted">{item.detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
