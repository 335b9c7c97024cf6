/** A release's health figures as table cells (the health table, a release's comparison with the one before). */
import { percent } from '../api/release-health.ts';

export function ReleaseHealthCells({
  release,
}: {
  release: {
    crashFreeSessions: number | null;
    crashFreeUsers: number | null;
    sessions: { total: number };
    users: { total: number };
    versionChecks: number;
  };
}) {
  return (
    <>
      <td>{percent(release.crashFreeSessions)}</td>
      <td>{percent(release.crashFreeUsers)}</td>
      <td>{release.sessions.total}</td>
      <td>{release.users.total}</td>
      <td>{release.versionChecks}</td>
    </>
  );
}
