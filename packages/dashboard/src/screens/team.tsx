/**
 * One team: its name (the owner renames it), the owner's seats and the seat rule, the members with
 * their roles (the owner changes roles and removes members; anyone but the owner may leave), invites
 * by e-mail (the owner), and the pending ones (admins see and resend them; the owner withdraws them).
 * What a role cannot do is hidden; the server refuses it anyway.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Account, ApiError, api, unwrap } from '../api/client.ts';
import { day, type Invite, type Member, ROLE_LABELS, type Team, TEAMS_KEY, teamKey } from '../api/accounts.ts';
import { Button, ErrorNote, Field, fieldErrors, Note, RequireAccount } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { ACTIONS, DataTable } from '../widgets/data-table.tsx';
import { SelectField } from '../widgets/fields.tsx';
import { SaveForm } from '../widgets/save-form.tsx';
import { TeamNameField } from '../widgets/account-fields.tsx';
import { Card } from '../widgets/card.tsx';
import { setAnd } from '../widgets/form-request.ts';
import { Empty, QueryView } from '../widgets/states.tsx';
import './teams.css';
import { useApiQuery } from '../api/use-api-query.ts';

type Assignable = 'admin' | 'member';
const ASSIGNABLE: readonly { value: Assignable; label: string }[] = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

/** Said where a role is chosen: a member only reads, which surprises who expected to invite a colleague. */
const ROLE_DESCRIPTIONS: Record<Assignable, string> = {
  member: 'Member: reads the team’s projects, ideas, errors and logs; changes nothing.',
  admin: 'Admin: also edits projects, keys, ideas, statuses, the changelog and every project setting.',
};

const membersKey = (teamId: string) => ['team', teamId, 'members'] as const;
const invitesKey = (teamId: string) => ['team', teamId, 'invites'] as const;

export default function TeamPage() {
  const { teamId = '' } = useParams();
  return <RequireAccount>{(account) => <TeamScreen teamId={teamId} account={account} />}</RequireAccount>;
}

function TeamScreen({ teamId, account }: { teamId: string; account: Account }) {
  const team = useApiQuery(teamKey(teamId), () => api.GET('/teams/{teamId}', { params: { path: { teamId } } }));
  useTitle(team.data?.name ?? 'Team');
  return (
    <section className="teams" aria-labelledby="team-title">
      <div>
        <p className="muted">
          <Link to="/teams">Teams</Link>
        </p>
        <h1 id="team-title">{team.data?.name ?? 'Team'}</h1>
        {team.data ? <p className="muted">Your role: {ROLE_LABELS[team.data.role]}</p> : null}
      </div>
      {team.error instanceof ApiError && team.error.status === 404 ? (
        <p className="note note-error" role="alert">
          This team does not exist, or you are not one of its members.
        </p>
      ) : (
        <QueryView query={team} what="the team">
          {(data) => (
            <>
              {data.role === 'owner' ? <Rename team={data} /> : null}
              <Seats team={data} />
              <Members team={data} account={account} />
              {data.role === 'owner' ? <InviteForm team={data} /> : null}
              {data.role === 'owner' || data.role === 'admin' ? <Invites team={data} /> : null}
            </>
          )}
        </QueryView>
      )}
    </section>
  );
}

function useRefreshTeam(teamId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: teamKey(teamId) }),
      queryClient.invalidateQueries({ queryKey: TEAMS_KEY }),
    ]);
}

function Rename({ team }: { team: Team }) {
  const [name, setName] = useState(team.name);
  const refresh = useRefreshTeam(team.id);
  const rename = useMutation({
    mutationFn: () => unwrap(api.PATCH('/teams/{teamId}', { params: { path: { teamId: team.id } }, body: { name } })),
    onSuccess: refresh,
  });
  const errors = fieldErrors(rename.error);
  return (
    <Card title="Team name" className="card">
      <SaveForm request={rename} submitLabel="Rename team" busyLabel="Saving…" done="Team renamed.">
        <TeamNameField value={name} onChange={setAnd(setName, rename.reset)} error={errors['name']} />
      </SaveForm>
    </Card>
  );
}

function Seats({ team }: { team: Team }) {
  const full = team.seats.used >= team.seats.limit;
  return (
    <section className="card stack" aria-labelledby="seats-title">
      <h2 id="seats-title">Seats</h2>
      <p>
        <strong>
          {team.seats.used} of {team.seats.limit} seats used
        </strong>{' '}
        {full ? <span className="badge badge-warn">Limit reached</span> : null}
      </p>
      <ul className="seat-rule">
        <li>
          Seats belong to the team’s owner and are shared by all of the owner’s teams. Each e-mail address that is a
          member of, or has a pending invitation to, any of them takes one seat, counted once however many of the teams
          it is in. The owner’s own address counts too.
        </li>
        <li>
          At the limit, an address that does not count yet cannot be invited. Withdrawing a pending invitation frees its
          seat at once; an expired invitation no longer counts.
        </li>
        <li>
          At the limit, an invitation is accepted only when the accepting account’s address is verified and already
          counts for the owner: it is a member of one of the owner’s teams, or has a pending invitation to one of them
          (such as the invitation being accepted). It then takes no new seat. An address typed at sign-up but not
          verified is not trusted: verify it first. Any other account is refused until a seat frees. Below the limit,
          any signed-in account may accept.
        </li>
      </ul>
    </section>
  );
}

function Members({ team, account }: { team: Team; account: Account }) {
  const members = useApiQuery(membersKey(team.id), () =>
    api.GET('/teams/{teamId}/members', { params: { path: { teamId: team.id } } }),
  );
  return (
    <section className="card stack" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <QueryView query={members} what="members">
        {({ members: list }) => (
          <DataTable
            caption={`Members of ${team.name}`}
            columns={['Member', 'E-mail address', 'Role', 'Joined', ACTIONS]}
          >
            {list.map((member) => (
              <MemberRow key={member.accountId} team={team} member={member} account={account} />
            ))}
          </DataTable>
        )}
      </QueryView>
    </section>
  );
}

function MemberRow({ team, member, account }: { team: Team; member: Member; account: Account }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const refresh = useRefreshTeam(team.id);
  const who = member.name || member.email;
  const self = member.accountId === account.id;
  const path = { teamId: team.id, accountId: member.accountId };
  const changeRole = useMutation({
    mutationFn: (role: Assignable) =>
      unwrap(api.PATCH('/teams/{teamId}/members/{accountId}', { params: { path }, body: { role } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey(team.id) }),
  });
  const remove = async () => {
    await unwrap(api.DELETE('/teams/{teamId}/members/{accountId}', { params: { path } }));
    if (self) {
      await queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
      await navigate('/teams');
      return;
    }
    await queryClient.invalidateQueries({ queryKey: membersKey(team.id) });
    await refresh();
  };
  const canManage = team.role === 'owner' && member.role !== 'owner';
  return (
    <tr>
      <th scope="row">
        {who}
        {self ? <span className="muted"> (you)</span> : null}
      </th>
      <td>
        {member.email} {member.verified ? null : <span className="badge badge-warn">Not verified</span>}
      </td>
      <td>
        {canManage ? (
          <div className="stack">
            <SelectField
              label={`Role of ${who}`}
              value={(changeRole.isError ? member.role : (changeRole.variables ?? member.role)) as Assignable}
              options={ASSIGNABLE}
              onChange={(role) => changeRole.mutate(role)}
              error={changeRole.error instanceof Error ? changeRole.error.message : undefined}
            />
            {changeRole.isSuccess ? <span role="status">Saved.</span> : null}
          </div>
        ) : (
          ROLE_LABELS[member.role]
        )}
      </td>
      <td>{day(member.joinedAt)}</td>
      <td>
        {canManage ? (
          <ConfirmButton
            label={`Remove ${who}`}
            title={`Remove ${who} from ${team.name}?`}
            confirmLabel="Remove"
            variant="danger"
            onConfirm={remove}
          >
            They lose access to the team’s projects at once. Their seat frees unless their address still counts in
            another of the owner’s teams.
          </ConfirmButton>
        ) : self && member.role !== 'owner' ? (
          <ConfirmButton
            label="Leave team"
            title={`Leave ${team.name}?`}
            confirmLabel="Leave"
            variant="danger"
            onConfirm={remove}
          >
            You lose access to the team’s projects. Joining again needs a new invitation.
          </ConfirmButton>
        ) : null}
      </td>
    </tr>
  );
}

function InviteForm({ team }: { team: Team }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Assignable>('member');
  const queryClient = useQueryClient();
  const refresh = useRefreshTeam(team.id);
  const invite = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/teams/{teamId}/invites', { params: { path: { teamId: team.id } }, body: { email, role } })),
    onSuccess: async () => {
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: invitesKey(team.id) });
      await refresh();
    },
  });
  const errors = fieldErrors(invite.error);
  return (
    <Card title="Invite someone" className="card">
      <SaveForm
        request={invite}
        submitLabel="Send invitation"
        busyLabel="Sending…"
        done={<>Invitation sent to {invite.data?.email}.</>}
      >
        <Field
          label="E-mail address to invite"
          name="inviteEmail"
          type="email"
          autoComplete="off"
          isRequired
          description="We e-mail a link that works for 7 days."
          value={email}
          onChange={setAnd(setEmail, invite.reset)}
          serverError={errors['email']}
        />
        <SelectField
          label="Role"
          value={role}
          options={ASSIGNABLE}
          onChange={setRole}
          description={ROLE_DESCRIPTIONS[role]}
        />
      </SaveForm>
    </Card>
  );
}

function Invites({ team }: { team: Team }) {
  const invites = useApiQuery(invitesKey(team.id), () =>
    api.GET('/teams/{teamId}/invites', { params: { path: { teamId: team.id } } }),
  );
  return (
    <section className="card stack" aria-labelledby="invites-title">
      <h2 id="invites-title">Pending invitations</h2>
      <QueryView query={invites} what="invitations">
        {({ invites: all }) => {
          // Accepted and withdrawn ones are history; expired ones may be sent again.
          const open = all.filter((invite) => invite.status === 'pending' || invite.status === 'expired');
          return open.length === 0 ? (
            <Empty>No pending invitations.</Empty>
          ) : (
            <DataTable
              caption={`Pending invitations to ${team.name}`}
              columns={['E-mail address', 'Role', 'Sent', 'Expires', ACTIONS]}
            >
              {open.map((invite) => (
                <InviteRow key={invite.id} team={team} invite={invite} />
              ))}
            </DataTable>
          );
        }}
      </QueryView>
    </section>
  );
}

function InviteRow({ team, invite }: { team: Team; invite: Invite }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshTeam(team.id);
  const path = { teamId: team.id, inviteId: invite.id };
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: invitesKey(team.id) });
    await refresh();
  };
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/teams/{teamId}/invites/{inviteId}/resend', { params: { path } })),
    onSuccess: reload,
  });
  const cancel = async () => {
    await unwrap(api.DELETE('/teams/{teamId}/invites/{inviteId}', { params: { path } }));
    await reload();
  };
  return (
    <tr>
      <th scope="row">{invite.email}</th>
      <td>{ROLE_LABELS[invite.role]}</td>
      <td>{day(invite.createdAt)}</td>
      <td>{invite.status === 'expired' ? <span className="badge badge-warn">Expired</span> : day(invite.expiresAt)}</td>
      <td>
        <div className="row">
          <Button
            variant="secondary"
            aria-label={`Resend the invitation to ${invite.email}`}
            onPress={() => resend.mutate()}
            busy={resend.isPending}
          >
            {resend.isPending ? 'Sending…' : 'Resend'}
          </Button>
          {team.role === 'owner' ? (
            <ConfirmButton
              label="Withdraw"
              title={`Withdraw the invitation to ${invite.email}?`}
              confirmLabel="Withdraw invitation"
              variant="quiet"
              onConfirm={cancel}
            >
              Its link stops working and its seat frees at once.
            </ConfirmButton>
          ) : null}
        </div>
        {resend.isSuccess ? <Note>Sent again to {invite.email}; the new link works for 7 days.</Note> : null}
        {resend.error ? <ErrorNote error={resend.error} /> : null}
      </td>
    </tr>
  );
}
