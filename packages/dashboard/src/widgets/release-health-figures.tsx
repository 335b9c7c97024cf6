/**
 * One release's health in a few figures: crash-free sessions and users, sessions, users and
 * version checks, and the change from the previous release. The releases screen, a release's
 * page and Home show it the same way.
 */
import { percent, points, type ReleaseHealthEntry } from '../api/release-health.ts';
import './release-health-figures.css';

export function ReleaseHealthFigures({ release }: { release: ReleaseHealthEntry }) {
  const { comparison } = release;
  return (
    <dl className="health-figures">
      <div>
        <dt>Crash-free sessions</dt>
        <dd>{percent(release.crashFreeSessions)}</dd>
      </div>
      <div>
        <dt>Crash-free users</dt>
        <dd>{percent(release.crashFreeUsers)}</dd>
      </div>
      <div>
        <dt>Sessions</dt>
        <dd>
          {release.sessions.total}
          {release.sessions.crashed > 0 ? ` (${release.sessions.crashed} crashed)` : ''}
        </dd>
      </div>
      <div>
        <dt>Users</dt>
        <dd>{release.users.total}</dd>
      </div>
      <div>
        <dt>Version checks</dt>
        <dd>{release.versionChecks}</dd>
      </div>
      <div className="health-change">
        <dt>{comparison.previous ? `Since ${comparison.previous}` : 'Previous release'}</dt>
        <dd>
          {comparison.previous
            ? `${points(comparison.crashFreeSessionsChange)} sessions, ${points(comparison.crashFreeUsersChange)} users`
            : 'none'}
        </dd>
      </div>
    </dl>
  );
}
