/**
 * An idea's people, on its page: the voters as people (name, e-mail, company, a link to their
 * page), and the comments with the team's reply box (a reply with a "Team" badge on the board, or
 * an internal note only the team sees), edits of one's own comments, hide, show and delete.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, fetchMe, ME_KEY, unwrap } from '../../api/client.ts';
import type { Comment, ManagedFeature } from '../../api/features.ts';
import { companyLine, personName } from '../../api/people.ts';
import { Button, ErrorNote, fieldErrors, Note } from '../../ui.tsx';
import { ConfirmButton } from '../../widgets/confirm.tsx';
import { CheckboxField, TextAreaField } from '../../widgets/fields.tsx';
import { QueryView } from '../../widgets/states.tsx';
import { useRefresh } from './refresh.ts';
import { ACTIONS, DataTable } from '../../widgets/data-table.tsx';
import { When } from '../../widgets/when.tsx';
import { useApiQuery } from '../../api/use-api-query.ts';
import { submitting } from '../../widgets/form-request.ts';

type Vote = { voterId: string; person: { id: string; name: string | null; email: string | null } | null };
const voterName = (vote: Vote) => (vote.person ? personName(vote.person, vote.voterId) : vote.voterId);

export function Voters({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const key = ['votes', feature.projectId, feature.id];
  const votes = useApiQuery(key, () =>
    api.GET('/projects/{projectId}/features/{featureId}/votes', {
      params: { path: { projectId: feature.projectId, featureId: feature.id }, query: { limit: 200 } },
    }),
  );
  const remove = async (voterId: string) => {
    await unwrap(
      api.DELETE('/projects/{projectId}/features/{featureId}/votes/{voterId}', {
        params: { path: { projectId: feature.projectId, featureId: feature.id, voterId } },
      }),
    );
    setNote('The vote was removed.');
    await queryClient.invalidateQueries({ queryKey: key });
    refresh();
  };
  return (
    <section className="card stack" aria-labelledby="voters-title">
      <h2 id="voters-title">Voters</h2>
      <QueryView query={votes} what="voters">
        {(data) =>
          data.votes.length === 0 ? (
            <p className="muted">No votes yet.</p>
          ) : (
            <>
              <DataTable
                labelledBy="voters-title"
                wrapClassName={null}
                columns={['Voter', 'Company', 'Voted', admin && ACTIONS]}
              >
                {data.votes.map((vote) => (
                  <tr key={vote.voterId}>
                    <td className="feature-voter">
                      {vote.person ? (
                        <Link to={`/projects/${feature.projectId}/people/${vote.person.id}`}>{voterName(vote)}</Link>
                      ) : (
                        vote.voterId
                      )}
                      {vote.person?.email && vote.person.name ? (
                        <span className="muted"> ({vote.person.email})</span>
                      ) : null}
                    </td>
                    <td>{companyLine(vote.person?.company ?? null) || <span className="muted">–</span>}</td>
                    <td>
                      <When at={vote.createdAt} />
                    </td>
                    {admin ? (
                      <td>
                        <ConfirmButton
                          label={`Remove the vote of ${voterName(vote)}`}
                          title="Remove this vote?"
                          confirmLabel="Remove vote"
                          onConfirm={() => remove(vote.voterId)}
                        >
                          <p>
                            The vote of <strong>{voterName(vote)}</strong> no longer counts for this idea. They can vote
                            again.
                          </p>
                        </ConfirmButton>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </DataTable>
              {data.total > data.votes.length ? (
                <p className="muted">
                  Showing the first {data.votes.length} of {data.total} voters.
                </p>
              ) : null}
            </>
          )
        }
      </QueryView>
      {note ? <Note>{note}</Note> : null}
    </section>
  );
}

export function Comments({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const key = ['comments', feature.projectId, feature.id];
  const comments = useApiQuery(key, () =>
    api.GET('/projects/{projectId}/features/{featureId}/comments', {
      params: { path: { projectId: feature.projectId, featureId: feature.id }, query: { limit: 200 } },
    }),
  );
  const me = useQuery({ queryKey: ME_KEY, queryFn: fetchMe });
  const [editing, setEditing] = useState<{ id: string; body: string } | null>(null);
  const edit = useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      unwrap(
        api.PATCH('/projects/{projectId}/features/{featureId}/comments/{commentId}', { ...path(id), body: { body } }),
      ),
    onSuccess: () => {
      setEditing(null);
      setNote('Comment changed.');
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const path = (commentId: string) => ({
    params: { path: { projectId: feature.projectId, featureId: feature.id, commentId } },
  });
  const visibility = useMutation({
    mutationFn: ({ comment, hidden }: { comment: Comment; hidden: boolean }) =>
      unwrap(
        api.PATCH('/projects/{projectId}/features/{featureId}/comments/{commentId}', {
          ...path(comment.id),
          body: { hidden },
        }),
      ),
    onSuccess: (_data, { hidden }) => {
      setNote(hidden ? 'Comment hidden from the board and the public API.' : 'Comment shown on the board again.');
      void queryClient.invalidateQueries({ queryKey: key });
      refresh();
    },
  });
  const remove = async (comment: Comment) => {
    await unwrap(api.DELETE('/projects/{projectId}/features/{featureId}/comments/{commentId}', path(comment.id)));
    setNote('Comment deleted.');
    await queryClient.invalidateQueries({ queryKey: key });
    refresh();
  };
  return (
    <section className="card stack" aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      <QueryView query={comments} what="comments">
        {(data) =>
          data.comments.length === 0 ? (
            <p className="muted">No comments yet.</p>
          ) : (
            <ol className="feature-comments">
              {data.comments.map((comment) => (
                <li key={comment.id} className={comment.hidden ? 'feature-comment is-hidden' : 'feature-comment'}>
                  <p className="row muted feature-comment-meta">
                    <span>
                      {comment.person ? (
                        <Link to={`/projects/${feature.projectId}/people/${comment.person.id}`}>
                          {personName(comment.person, comment.authorName || 'Anonymous')}
                        </Link>
                      ) : (
                        comment.authorName || 'Anonymous'
                      )}
                    </span>
                    {comment.team ? <span className="badge badge-muted">Team</span> : null}
                    {comment.internal ? <span className="badge badge-warn">Internal note</span> : null}
                    {comment.editedAt ? <span>(edited)</span> : null}
                    <span aria-hidden="true">·</span>
                    <When at={comment.createdAt} />
                    {comment.hidden ? <span className="badge badge-warn">Hidden</span> : null}
                  </p>
                  {editing?.id === comment.id ? (
                    <form
                      className="stack"
                      onSubmit={(event) => {
                        event.preventDefault();
                        if (editing.body.trim()) edit.mutate({ id: comment.id, body: editing.body.trim() });
                      }}
                    >
                      <TextAreaField
                        label="Edit your comment"
                        value={editing.body}
                        onChange={(body) => setEditing({ id: comment.id, body })}
                      />
                      <div className="row">
                        <Button type="submit" busy={edit.isPending}>
                          Save
                        </Button>
                        <Button variant="secondary" onPress={() => setEditing(null)}>
                          Cancel
                        </Button>
                      </div>
                      {edit.error ? <ErrorNote error={edit.error} /> : null}
                    </form>
                  ) : (
                    <p className="feature-comment-body">{comment.body}</p>
                  )}
                  {admin ? (
                    <div className="row">
                      {me.data && comment.accountId === me.data.id && editing?.id !== comment.id ? (
                        <Button
                          variant="secondary"
                          aria-label={`Edit your comment: ${comment.body.slice(0, 40)}`}
                          onPress={() => setEditing({ id: comment.id, body: comment.body })}
                        >
                          Edit
                        </Button>
                      ) : null}
                      <Button
                        variant="secondary"
                        busy={visibility.isPending && visibility.variables?.comment.id === comment.id}
                        aria-label={`${comment.hidden ? 'Show' : 'Hide'} the comment by ${comment.authorName || 'Anonymous'}: ${comment.body.slice(0, 40)}`}
                        onPress={() => {
                          setNote('');
                          visibility.mutate({ comment, hidden: !comment.hidden });
                        }}
                      >
                        {comment.hidden ? 'Show' : 'Hide'}
                      </Button>
                      <ConfirmButton
                        label="Delete"
                        title="Delete this comment?"
                        confirmLabel="Delete comment"
                        onConfirm={() => remove(comment)}
                      >
                        <p>
                          “{comment.body.slice(0, 120)}
                          {comment.body.length > 120 ? '…' : ''}” is deleted for good. Hiding it keeps it for the team.
                        </p>
                      </ConfirmButton>
                    </div>
                  ) : null}
                </li>
              ))}
            </ol>
          )
        }
      </QueryView>
      {visibility.error ? <ErrorNote error={visibility.error} /> : null}
      {note ? <Note>{note}</Note> : null}
      {admin ? (
        <Reply
          feature={feature}
          onDone={(said) => {
            setNote(said);
            void queryClient.invalidateQueries({ queryKey: key });
            refresh();
          }}
        />
      ) : null}
    </section>
  );
}

/** The team's reply box: a public reply with the "Team" badge, or an internal note. */
function Reply({ feature, onDone }: { feature: ManagedFeature; onDone: (said: string) => void }) {
  const [body, setBody] = useState('');
  const [internal, setInternal] = useState(false);
  const send = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/projects/{projectId}/features/{featureId}/comments', {
          params: { path: { projectId: feature.projectId, featureId: feature.id } },
          body: { body: body.trim(), internal },
        }),
      ),
    onSuccess: () => {
      onDone(internal ? 'Internal note added: only the team sees it.' : 'Reply posted on the board as the team.');
      setBody('');
      setInternal(false);
    },
  });
  const errors = fieldErrors(send.error);
  const submit = submitting(
    () => send.mutate(),
    () => body.trim() !== '',
  );
  return (
    <form className="stack" onSubmit={submit} aria-labelledby="reply-title">
      <h3 id="reply-title">Reply as the team</h3>
      <TextAreaField label="Your reply" name="reply" rows={3} value={body} error={errors['body']} onChange={setBody} />
      <CheckboxField
        label="Note for the team only"
        name="teamOnly"
        checked={internal}
        description="An internal note: never on the board, the public API or in e-mails."
        onChange={setInternal}
      />
      <div className="row">
        <Button type="submit" busy={send.isPending} isDisabled={!body.trim() && !send.isPending}>
          {internal ? 'Add note' : 'Post reply'}
        </Button>
      </div>
      {send.error ? <ErrorNote error={send.error} /> : null}
    </form>
  );
}
