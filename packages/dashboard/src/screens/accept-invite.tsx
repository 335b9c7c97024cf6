/**
 * The page the invite e-mail links to (`/app/invites/:token`): the team, the role and who invited;
 * signing in (or up) first, coming back here; then Accept. The server's refusals are shown in words,
 * with what to do about them (verify the address, ask for a seat, use the invited account).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { type Account, ApiError, api, fetchMe, ME_KEY, unwrap } from '../api/client.ts';
import { day, type InvitePreview, ROLE_LABELS, TEAMS_KEY } from '../api/accounts.ts';
import { Button, ErrorNote } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { Loading } from '../widgets/states.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

const STATUS_WORDS = {
  accepted: 'This invitation has already been accepted.',
  revoked: 'This invitation has been withdrawn. Ask the team for a new one.',
  expired: 'This invitation has expired. Ask the team to send it again.',
} as const;

export default function AcceptInvite() {
  const { token = '' } = useParams();
  useTitle('Invitation');
  const invite = useApiQuery(['invite', token], () => api.GET('/invites/{token}', { params: { path: { token } } }), {
    retry: false,
  });
  const me = useQuery({ queryKey: ME_KEY, queryFn: fetchMe });
  return (
    <section className="card narrow stack" aria-labelledby="invite-title">
      <h1 id="invite-title">{invite.data ? `Join ${invite.data.teamName}` : 'Invitation'}</h1>
      {invite.isPending || me.isPending ? (
        <Loading what="the invitation" />
      ) : invite.isError ? (
        <>
          {invite.error instanceof ApiError && invite.error.status === 404 ? (
            <p className="note note-error" role="alert">
              This invitation link is not valid: it may have been replaced by a newer e-mail. Open the newest invitation
              e-mail, or ask the team to send it again.
            </p>
          ) : (
            <ErrorNote error={invite.error} />
          )}
          <p>
            <Link to="/">Go to the dashboard</Link>
          </p>
        </>
      ) : me.isError ? (
        <ErrorNote error={me.error} />
      ) : (
        <Details token={token} invite={invite.data} account={me.data ?? null} />
      )}
    </section>
  );
}

function Details({ token, invite, account }: { token: string; invite: InvitePreview; account: Account | null }) {
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => unwrap(api.POST('/invites/{token}/accept', { params: { path: { token } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAMS_KEY }),
  });
  const here = `/invites/${encodeURIComponent(token)}`;
  const otherAddress = account !== null && account.email.toLowerCase() !== invite.email.toLowerCase();
  return (
    <>
      <dl className="facts">
        <dt>Team</dt>
        <dd>{invite.teamName}</dd>
        <dt>Role</dt>
        <dd>{ROLE_LABELS[invite.role]}</dd>
        <dt>Invited by</dt>
        <dd>{invite.invitedBy ?? 'A former member'}</dd>
        <dt>Sent to</dt>
        <dd>{invite.email}</dd>
        {invite.status === 'pending' ? (
          <>
            <dt>Valid until</dt>
            <dd>{day(invite.expiresAt)}</dd>
          </>
        ) : null}
      </dl>
      {accept.isSuccess ? (
        <div className="stack" role="status">
          <p className="note note-ok">
            You joined <strong>{invite.teamName}</strong> as {ROLE_LABELS[accept.data.role].toLowerCase()}.
          </p>
          <p>
            <Link to={`/teams/${invite.teamId}`}>Open the team</Link>
          </p>
        </div>
      ) : invite.status !== 'pending' ? (
        <p className="note note-error" role="alert">
          {STATUS_WORDS[invite.status]}
        </p>
      ) : account === null ? (
        <div className="stack">
          <p>Sign in to accept, or create an account with {invite.email}. You come back here afterwards.</p>
          <div className="row">
            <Link className="button button-primary" to={`/sign-in?next=${encodeURIComponent(here)}`}>
              Sign in to accept
            </Link>
            <Link className="button button-secondary" to={`/sign-up?next=${encodeURIComponent(here)}`}>
              Create an account
            </Link>
          </div>
        </div>
      ) : (
        <div className="stack">
          <p>
            You are signed in as <strong>{account.email}</strong>.
          </p>
          {otherAddress ? (
            <p className="note note-warn">
              This invitation was sent to {invite.email}, not to the address of this account. Accepting it with this
              account needs a free seat of the team’s owner. To accept as {invite.email}, sign out and sign in with that
              address.
            </p>
          ) : null}
          {!account.verified ? (
            <p className="note note-warn">
              Your address is not verified. When the team is at its seat limit, only a verified address that was invited
              is let in: <Link to="/account">verify it from your account</Link> first.
            </p>
          ) : null}
          {accept.error ? <Refusal error={accept.error} account={account} /> : null}
          <div>
            <Button onPress={() => accept.mutate()} busy={accept.isPending}>
              {accept.isPending ? 'Accepting…' : 'Accept invitation'}
            </Button>
          </div>
        </div>
      )}
    </>
  );
}

/** The server's refusal, and what to do about it. */
function Refusal({ error, account }: { error: unknown; account: Account }) {
  const seatLimit = error instanceof ApiError && error.code === 'SeatLimit';
  return (
    <div className="stack">
      <ErrorNote error={error} />
      {seatLimit ? (
        account.verified ? (
          <p>
            The owner has no free seat. Ask them to free one (withdraw an invitation or remove a member) or to raise
            their limit, then accept again.
          </p>
        ) : (
          <p>
            <Link to="/account">Verify your e-mail address</Link> from your account, then open this link again.
          </p>
        )
      ) : null}
    </div>
  );
}
