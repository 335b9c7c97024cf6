/** The bug reports linked to an idea. */
import { api } from '../../api/client.ts';
import type { ManagedFeature } from '../../api/features.ts';
import { QueryView } from '../../widgets/states.tsx';
import { DataTable } from '../../widgets/data-table.tsx';
import { When } from '../../widgets/when.tsx';
import { useApiQuery } from '../../api/use-api-query.ts';

export function LinkedBugs({ feature }: { feature: ManagedFeature }) {
  const bugs = useApiQuery(['bugs', feature.projectId, { featureId: feature.id }], () =>
    api.GET('/projects/{projectId}/bugs', {
      params: { path: { projectId: feature.projectId }, query: { featureId: feature.id, limit: 50 } },
    }),
  );
  return (
    <section className="card stack" aria-labelledby="bugs-title">
      <h2 id="bugs-title">Linked bug reports</h2>
      <QueryView query={bugs} what="bug reports">
        {(data) =>
          data.bugs.length === 0 ? (
            <p className="muted">No bug reports are linked to this idea.</p>
          ) : (
            <DataTable
              labelledBy="bugs-title"
              wrapClassName={null}
              columns={['Report', 'Severity', 'Reports', 'Status', 'Last seen']}
            >
              {data.bugs.map((bug) => (
                <tr key={bug.id}>
                  <td>
                    <strong>{bug.title}</strong>
                    <br />
                    <span className="muted">{bug.message.slice(0, 160)}</span>
                  </td>
                  <td>{bug.severity}</td>
                  <td>{bug.occurrences}</td>
                  <td>{bug.status}</td>
                  <td>
                    <When at={bug.lastSeenAt} />
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
    </section>
  );
}
