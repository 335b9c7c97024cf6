/** The caller's teams (role, the owner's seats) and creating another team. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { ROLE_LABELS, TEAMS_KEY } from '../api/accounts.ts';
import { fieldErrors, RequireAccount } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { DataTable } from '../widgets/data-table.tsx';
import { SaveForm } from '../widgets/save-form.tsx';
import { TeamNameField } from '../widgets/account-fields.tsx';
import { Card } from '../widgets/card.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './teams.css';
import { useApiQuery } from '../api/use-api-query.ts';

function CreateTeam() {
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/teams', { body: { name } })),
    onSuccess: async (team) => {
      await queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
      await navigate(`/teams/${team.id}`);
    },
  });
  const errors = fieldErrors(create.error);
  return (
    <Card title="Create a team" className="card">
      <SaveForm request={create} submitLabel="Create team" busyLabel="Creating…">
        <TeamNameField
          description="You own it; its members count against your seats, with those of your other teams."
          value={name}
          onChange={setName}
          error={errors['name']}
        />
      </SaveForm>
    </Card>
  );
}

export default function Teams() {
  useTitle('Teams');
  return (
    <RequireAccount>
      {() => (
        <section className="teams" aria-labelledby="teams-title">
          <h1 id="teams-title">Teams</h1>
          <TeamList />
          <CreateTeam />
        </section>
      )}
    </RequireAccount>
  );
}

function TeamList() {
  const teams = useApiQuery(TEAMS_KEY, () => api.GET('/teams'));
  return (
    <QueryView query={teams} what="teams">
      {({ teams: list }) =>
        list.length === 0 ? (
          <Empty>You are not in any team yet. Create one, or accept an invitation.</Empty>
        ) : (
          <DataTable
            caption="Teams you belong to"
            captionClassName="muted"
            columns={['Team', 'Your role', 'Owner’s seats used']}
          >
            {list.map((team) => (
              <tr key={team.id}>
                <th scope="row">
                  <Link to={`/teams/${team.id}`}>{team.name}</Link>
                </th>
                <td>{ROLE_LABELS[team.role]}</td>
                <td>
                  {team.seats.used} of {team.seats.limit}
                </td>
              </tr>
            ))}
          </DataTable>
        )
      }
    </QueryView>
  );
}
