/**
 * The project's people: everyone who voted, commented or submitted (board users, SSO users with
 * their company, the app's voter ids, contact e-mails), most recently seen first; searched by
 * name, e-mail or company through the URL's `q`; more rows through the API's cursor.
 */
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import { day } from '../api/features.ts';
import { companyLine, peopleKey, personName } from '../api/people.ts';
import { useProject } from '../project-layout.tsx';
import { SearchForm } from '../widgets/search-form.tsx';
import { useTitle } from '../use-title.ts';
import { ListStates } from '../widgets/states.tsx';
import { DataTable } from '../widgets/data-table.tsx';
import { useCursorList } from '../api/use-cursor-list.ts';
import { LoadMore } from '../widgets/load-more.tsx';

const PAGE_SIZE = 50;

export default function People() {
  useTitle('People');
  const project = useProject();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const { list, rows } = useCursorList(
    [...peopleKey(project.id), q],
    PAGE_SIZE,
    (paging) =>
      api.GET('/projects/{projectId}/people', {
        params: { path: { projectId: project.id }, query: { ...paging, ...(q ? { q } : {}) } },
      }),
    (page) => page.people,
  );
  return (
    <div className="stack">
      <h1>People</h1>
      <SearchForm
        className="row"
        value={q}
        placeholder="Name, e-mail address or company"
        onSearch={(next) => setParams(next ? { q: next } : {})}
      />
      <ListStates
        queries={[list]}
        what="people"
        isEmpty={rows.length === 0}
        empty={
          <p>
            {q
              ? `No one matches “${q}”.`
              : 'No people yet. Voters, commenters and submitters show here, with their company when the host app signs them in.'}
          </p>
        }
      >
        {() => (
          <>
            <DataTable label="People" wrapClassName={null} columns={['Name', 'E-mail', 'Company', 'Last seen']}>
              {rows.map((person) => (
                <tr key={person.id}>
                  <td>
                    <Link to={`/projects/${project.id}/people/${person.id}`}>{personName(person)}</Link>
                  </td>
                  <td>{person.email ?? <span className="muted">–</span>}</td>
                  <td>{companyLine(person.company) || <span className="muted">–</span>}</td>
                  <td>
                    <time dateTime={person.lastSeenAt}>{day(person.lastSeenAt)}</time>
                  </td>
                </tr>
              ))}
            </DataTable>
            <LoadMore list={list} />
          </>
        )}
      </ListStates>
    </div>
  );
}
