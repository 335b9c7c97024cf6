/**
 * Versions the project's live events or sessions reported that nobody created (issue 33): they
 * went live when first seen (what was resolved in them shipped), and are listed as "seen, not
 * created" until a release of that version is created.
 */
import type { paths } from '../api/schema.gen.ts';

type Seen = paths['/projects/{projectId}/releases']['get']['responses'][200]['content']['application/json']['seen'];

export function SeenReleases({ seen }: { seen: Seen }) {
  if (seen.length === 0) return null;
  return (
    <div className="stack">
      <h3 id="seen-releases-title">Seen, not created</h3>
      <p className="muted">
        Reported by live events or sessions before anyone created them. Each went live when first seen; create it to add
        notes and offer it in the version check.
      </p>
      <ul aria-labelledby="seen-releases-title" className="seen-releases">
        {seen.map((release) => (
          <li key={release.version}>
            <code>{release.version}</code> <span className="badge">Seen, not created</span>{' '}
            <span className="muted">
              first in {release.source === 'events' ? 'error events' : 'sessions'}{' '}
              <time dateTime={release.firstSeenAt}>{new Date(release.firstSeenAt).toLocaleString()}</time>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
