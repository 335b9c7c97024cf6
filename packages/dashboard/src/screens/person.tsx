/**
 * One person of the project: who they are, their company, and their ideas, votes and comments.
 * Admins answer a data request here (issue 36): their data as a JSON download, and their erasure
 * behind a confirmation that says what happens to what they wrote; and merge a duplicate person
 * into the one kept ("Merge into…": search the person to keep, then confirm).
 */
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { statusLabel, when } from '../api/features.ts';
import { companyLine, peopleKey, personKey, personName } from '../api/people.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Field } from '../ui.tsx';
import { useDebounced } from '../use-debounced.ts';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { QueryView } from '../widgets/states.tsx';
import { When } from '../widgets/when.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { Card } from '../widgets/card.tsx';

/** Saves a JSON document as a file through the browser's download. */
function download(name: string, data: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // After the browser took the file: revoking at once may cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function PersonDataActions({ projectId, personId, name }: { projectId: string; personId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const settings = useApiQuery(['people-settings', projectId], () =>
    api.GET('/projects/{projectId}/people-settings', { params: { path: { projectId } } }),
  );
  const params = { params: { path: { projectId, personId } } };
  const exportData = async () => {
    setExporting(true);
    setError(null);
    try {
      download(
        `person-${personId}.json`,
        await unwrap(api.POST('/projects/{projectId}/people/{personId}/export', params)),
      );
    } catch (failure) {
      setError(failure);
    } finally {
      setExporting(false);
    }
  };
  const erase = async () => {
    await unwrap(api.POST('/projects/{projectId}/people/{personId}/erase', params));
    await queryClient.invalidateQueries({ queryKey: peopleKey(projectId) });
    queryClient.removeQueries({ queryKey: personKey(projectId, personId) });
    await navigate(`/projects/${projectId}/people`);
  };
  const deletes = settings.data?.eraseContent === 'delete';
  return (
    <section className="card stack" aria-labelledby="person-data">
      <h2 id="person-data">Their data</h2>
      <div className="row">
        <Button variant="secondary" onPress={exportData} busy={exporting}>
          {exporting ? 'Exporting…' : 'Export their data (JSON)'}
        </Button>
        <ConfirmButton
          label="Erase person"
          title={`Erase ${name}?`}
          confirmLabel="Erase"
          variant="danger"
          onConfirm={erase}
        >
          Their name, e-mail addresses, board sign-in, follows and e-mails go.{' '}
          {deletes ? 'Their ideas and comments are deleted.' : 'Their ideas and comments stay, without their name.'}{' '}
          Their votes still count, linked to nobody. This cannot be undone.
        </ConfirmButton>
      </div>
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}

/** "Merge into…": this person is a duplicate of another; pick the one kept, confirm, land on their page. */
function MergeInto({ projectId, personId, name }: { projectId: string; personId: string; name: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const results = useApiQuery(
    [...peopleKey(projectId), 'merge-search', q],
    () => api.GET('/projects/{projectId}/people', { params: { path: { projectId }, query: { q, limit: 8 } } }),
    { enabled: open && q.length > 0 },
  );
  const merge = async () => {
    if (!chosen) return;
    await unwrap(
      api.POST('/projects/{projectId}/people/{personId}/merge', {
        params: { path: { projectId, personId } },
        body: { into: chosen.id },
      }),
    );
    await queryClient.invalidateQueries({ queryKey: peopleKey(projectId) });
    queryClient.removeQueries({ queryKey: personKey(projectId, personId) });
    await queryClient.invalidateQueries({ queryKey: personKey(projectId, chosen.id) });
    setOpen(false);
    await navigate(`/projects/${projectId}/people/${chosen.id}`);
  };
  const candidates = (results.data?.people ?? []).filter((other) => other.id !== personId);
  return (
    <ConfirmButton
      label="Merge into…"
      variant="secondary"
      title={`Merge ${name} into…`}
      choice
      confirmLabel={chosen ? `Merge into ${chosen.name}` : 'Merge'}
      busyLabel="Merging…"
      confirmDisabled={!chosen}
      onConfirm={merge}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setSearch('');
          setChosen(null);
        }
      }}
    >
      <p>
        When one human shows as two people: their votes (one per idea kept), comments, ideas, addresses and company go
        to the person you keep, and this page goes.
      </p>
      <Field label="Find the person to keep" type="search" value={search} onChange={setSearch} autoFocus />
      {q ? (
        results.isPending ? (
          <p className="muted" role="status">
            Searching…
          </p>
        ) : candidates.length === 0 ? (
          <p className="muted" role="status">
            Nobody else matches.
          </p>
        ) : (
          <ul className="stack" aria-label="People found">
            {candidates.map((other) => (
              <li key={other.id} className="row">
                <span>
                  <strong>{personName(other)}</strong>
                  {other.email && other.name ? ` (${other.email})` : ''}
                  {other.company ? ` · ${companyLine(other.company)}` : ''}
                </span>
                <Button
                  variant="quiet"
                  aria-pressed={chosen?.id === other.id}
                  onPress={() => setChosen({ id: other.id, name: personName(other) })}
                >
                  {chosen?.id === other.id ? `Keeping ${personName(other)}` : `Keep ${personName(other)}`}
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </ConfirmButton>
  );
}

export default function PersonScreen() {
  const project = useProject();
  const { personId = '' } = useParams();
  const person = useApiQuery(personKey(project.id, personId), () =>
    api.GET('/projects/{projectId}/people/{personId}', { params: { path: { projectId: project.id, personId } } }),
  );
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
            {canAdminister(project) ? (
              <>
                <div className="row">
                  <MergeInto projectId={project.id} personId={personId} name={personName(who)} />
                </div>
                <PersonDataActions projectId={project.id} personId={personId} name={personName(who)} />
              </>
            ) : null}
            <ListCard title="Ideas" items={ideas} none="None submitted.">
              {(row) => (
                <>
                  <Link to={idea(row.id)}>{row.title}</Link> ({statusLabel(row.status)}, {row.voteCount} votes)
                </>
              )}
            </ListCard>
            <ListCard title="Votes" items={votes} none="No votes.">
              {(row) => (
                <>
                  <Link to={idea(row.id)}>{row.title}</Link> ({statusLabel(row.status)}), voted{' '}
                  <When at={row.votedAt} />
                </>
              )}
            </ListCard>
            <ListCard title="Comments" items={comments} none="No comments.">
              {(row) => (
                <>
                  On <Link to={idea(row.featureId)}>{row.featureTitle}</Link>, <When at={row.createdAt} />: “
                  {row.body.slice(0, 200)}”
                </>
              )}
            </ListCard>
          </>
        )}
      </QueryView>
    </div>
  );
}

/** One of the person's lists in its card: the heading with the count, then "none" in words or the items. */
function ListCard<T extends { id: string }>({
  title,
  items,
  none,
  children,
}: {
  title: string;
  items: readonly T[];
  none: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <Card title={`${title} (${items.length})`}>
      {items.length === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <ul>
          {items.map((item) => (
            <li key={item.id}>{children(item)}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}
