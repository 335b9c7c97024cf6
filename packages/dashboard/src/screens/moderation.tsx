/**
 * The moderation queue: ideas and comments the board held (moderation on, or their author marked
 * as spam), oldest first. Approve makes an item public; reject deletes it; "mark as spam" deletes
 * it and holds what its author posts next. Members see the queue; admins decide.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  decide,
  loadModeration,
  MODERATION_PAGE,
  type ModerationAction,
  type ModerationItem,
  moderationKey,
} from '../api/moderation.ts';
import { featuresKey, when } from '../api/features.ts';
import { ATTENTION_KEY } from './home.tsx';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { Empty, QueryView } from '../widgets/states.tsx';
import { Pager } from '../widgets/pager.tsx';
import './moderation.css';

const DONE: Record<ModerationAction, string> = {
  approve: 'Approved: it is public now.',
  reject: 'Rejected: it was deleted.',
  spam: 'Marked as spam: deleted, and what its author posts next is held.',
};

export default function Moderation() {
  useTitle('Moderation');
  const project = useProject();
  const [page, setPage] = useState(1);
  const queue = useQuery({
    queryKey: [...moderationKey(project.id), page],
    queryFn: () => loadModeration(project.id, (page - 1) * MODERATION_PAGE),
  });
  const [notice, setNotice] = useState('');
  return (
    <section className="stack" aria-labelledby="moderation-title">
      <h1 id="moderation-title">Moderation</h1>
      <p className="muted">
        Ideas and comments held for approval: with moderation on (in the board’s settings), and everything from a person
        marked as spam.
      </p>
      {notice ? <Note>{notice}</Note> : null}
      <QueryView query={queue} what="the moderation queue">
        {(data) =>
          data.items.length === 0 ? (
            <Empty>
              <p>Nothing is waiting for approval.</p>
            </Empty>
          ) : (
            <>
              <p>{data.total === 1 ? '1 item waits for approval' : `${data.total} items wait for approval`}</p>
              <ul className="moderation-list">
                {data.items.map((item) => (
                  <QueueItem
                    key={`${item.kind}:${item.id}`}
                    item={item}
                    canDecide={canAdminister(project)}
                    onDone={setNotice}
                  />
                ))}
              </ul>
              <Pager page={page} pages={Math.ceil(data.total / MODERATION_PAGE)} onPage={setPage} />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function QueueItem({
  item,
  canDecide,
  onDone,
}: {
  item: ModerationItem;
  canDecide: boolean;
  onDone: (notice: string) => void;
}) {
  const project = useProject();
  const client = useQueryClient();
  const action = useMutation({
    mutationFn: (what: ModerationAction) => decide(project.id, item, what),
    onSuccess: async (_data, what) => {
      onDone(
        `${item.kind === 'idea' ? 'Idea' : 'Comment'} “${short(item.kind === 'idea' ? item.featureTitle : item.body)}”: ${DONE[what]}`,
      );
      await Promise.all([
        client.invalidateQueries({ queryKey: moderationKey(project.id) }),
        client.invalidateQueries({ queryKey: featuresKey(project.id) }),
        client.invalidateQueries({ queryKey: ATTENTION_KEY }),
      ]);
    },
  });
  const headingId = `held-${item.id}`;
  const busy = action.isPending;
  return (
    <li className="card stack moderation-item" aria-labelledby={headingId}>
      <h2 id={headingId} className="moderation-title">
        {item.kind === 'idea' ? (
          item.featureTitle
        ) : (
          <>
            Comment on <Link to={`/projects/${project.id}/inbox/${item.featureId}`}>{item.featureTitle}</Link>
          </>
        )}
      </h2>
      <p className="muted">
        {item.kind === 'idea' ? 'Idea' : 'Comment'} by{' '}
        {item.authorName ?? (item.boardUserId ? 'a board user' : 'the API')} · {when(item.createdAt)}
        {item.environment === 'test' ? ' · test' : ''}
      </p>
      <p className="moderation-body">{item.body}</p>
      {canDecide ? (
        <div className="row">
          <Button busy={busy} onPress={() => action.mutate('approve')}>
            Approve<span className="visually-hidden"> {label(item)}</span>
          </Button>
          <Button variant="secondary" busy={busy} onPress={() => action.mutate('reject')}>
            Reject<span className="visually-hidden"> {label(item)}</span>
          </Button>
          <Button variant="danger" busy={busy} onPress={() => action.mutate('spam')}>
            Mark as spam<span className="visually-hidden"> {label(item)}</span>
          </Button>
        </div>
      ) : (
        <p className="muted">An admin approves or rejects it.</p>
      )}
      {action.isError ? <ErrorNote error={action.error} /> : null}
    </li>
  );
}

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);
const label = (item: ModerationItem) =>
  item.kind === 'idea' ? `idea “${short(item.featureTitle)}”` : `comment “${short(item.body)}”`;
