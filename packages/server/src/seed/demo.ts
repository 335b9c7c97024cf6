import type { Queryable } from '../db/database.ts';
import { backdateFeature, insertFeature } from '../resources/features/index.ts';
import { newId, nowIso } from '../kernel/ids.ts';

const ago = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString();

/** Sample data that makes every public read of the demo project show something real. */
export async function seedDemoProject(db: Queryable, projectId: string): Promise<void> {
  const scope = { projectId, environment: 'live' as const };
  const features = [
    { title: 'Dark mode', description: 'Offer a dark theme that follows the system setting.', status: 'planned', votes: 42 },
    { title: 'Export to CSV', description: 'Download any report as a CSV file for spreadsheets.', status: 'in-progress', votes: 17 },
    { title: 'Keyboard shortcuts', description: 'Navigate the whole app without touching the mouse.', status: 'open', votes: 9 },
    { title: 'Two-factor sign-in', description: 'Protect accounts with an authenticator app code.', status: 'done', votes: 55 },
    { title: 'Offline mode', description: 'Keep working while the network is down and sync later.', status: 'declined', votes: 3 },
    { title: 'Slack notifications', description: 'Post a message to a channel when a status changes.', status: 'in-review', votes: 12 },
  ] as const;
  const ids: string[] = [];
  for (const [index, item] of features.entries()) {
    const row = await insertFeature(db, scope, {
      title: item.title,
      description: item.description,
      type: 'feature',
      status: item.status,
      internal: false,
    });
    await backdateFeature(db, row.id, { voteCount: item.votes, createdAt: ago(30 - index) });
    ids.push(row.id);
  }
  const bug = await insertFeature(db, scope, {
    title: 'Chart legend overlaps labels',
    description: 'On narrow screens the legend covers the axis labels.',
    type: 'bug',
    status: 'new',
    internal: false,
  });
  await insertFeature(db, scope, {
    title: 'Internal: migrate billing provider',
    description: 'Engineering-only task that the public board must never show.',
    type: 'feature',
    status: 'planned',
    internal: true,
  });
  void bug;

  const changelog = [
    { featureId: ids[3], summary: 'Two-factor sign-in is here', description: '<p>Turn it on under <strong>Settings → Security</strong>.</p>', key: '', label: '', days: 5 },
    { featureId: null, summary: 'Faster dashboard', description: '<p>Pages load twice as fast.</p>', key: 'improved', label: 'Improved', days: 10 },
    { featureId: null, summary: 'Fixed time zones in reports', description: '<p>Reports now use your time zone.</p>', key: 'fixed', label: 'Fixed', days: 15 },
  ];
  for (const entry of changelog) {
    await db.run(
      `INSERT INTO changelog_entries (id, project_id, feature_id, summary, description, status_key, status_label, published, created_at, published_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      [newId('chg'), projectId, entry.featureId ?? null, entry.summary, entry.description, entry.key, entry.label, ago(entry.days + 1), ago(entry.days)],
    );
  }
  await db.run(
    `INSERT INTO changelog_entries (id, project_id, feature_id, summary, description, status_key, status_label, published, created_at, published_at)
     VALUES (?, ?, NULL, ?, ?, 'new', 'New', 0, ?, NULL)`,
    [newId('chg'), projectId, 'Draft: CSV export', '<p>Coming soon.</p>', nowIso()],
  );

  await db.run(
    `INSERT INTO status_messages (id, project_id, type, text, is_active, priority, starts_at, expires_at, created_at)
     VALUES (?, ?, 'info', 'Welcome to the Signpost demo project.', 1, 10, NULL, NULL, ?)`,
    [newId('msg'), projectId, nowIso()],
  );
  for (const [key, enabled] of [['new-dashboard', 1], ['beta-export', 0]] as const) {
    await db.run('INSERT INTO feature_flags (id, project_id, key, enabled, created_at) VALUES (?, ?, ?, ?, ?)', [
      newId('flag'), projectId, key, enabled, nowIso(),
    ]);
  }
  const environments: Array<[string, string, string, string, number]> = [
    ['Production', 'production', 'https://app.example.com', '#16a34a', 0],
    ['Staging', 'staging', 'https://staging.example.com', '#f59e0b', 1],
  ];
  for (const [position, env] of environments.entries()) {
    await db.run(
      `INSERT INTO environments (id, project_id, name, slug, url, color, debug_enabled, position, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [newId('env'), projectId, env[0], env[1], env[2], env[3], env[4], position, nowIso()],
    );
  }

  const translations: Array<[string, string, string, string]> = [
    ['app.title', 'common', 'Demo App', 'Demo-App'],
    ['app.welcome', 'common', 'Welcome, {name}!', 'Willkommen, {name}!'],
    ['nav.roadmap', 'common', 'Roadmap', 'Roadmap'],
    ['nav.changelog', 'common', 'Changelog', 'Änderungen'],
    ['feedback.submit', 'feedback', 'Send feedback', 'Feedback senden'],
    ['feedback.thanks', 'feedback', 'Thanks for your feedback!', 'Danke für dein Feedback!'],
  ];
  for (const [key, namespace, en, de] of translations) {
    const keyId = newId('tk');
    await db.run(
      `INSERT INTO translation_keys (id, project_id, key, namespace, category, default_text, created_at, updated_at)
       VALUES (?, ?, ?, ?, NULL, ?, ?, ?)`,
      [keyId, projectId, key, namespace, en, nowIso(), nowIso()],
    );
    for (const [locale, text] of [['en', en], ['de', de]] as const) {
      await db.run('INSERT INTO translation_values (key_id, locale, text, updated_at) VALUES (?, ?, ?, ?)', [
        keyId, locale, text, nowIso(),
      ]);
    }
  }

  const releases = [
    { version: '1.0.0', title: 'First release', notes: 'Hello, world.', days: 60, beta: 0, required: 1 },
    { version: '1.1.0', title: 'Dark mode', notes: 'Adds dark mode and faster start-up.', days: 10, beta: 0, required: 0 },
    { version: '1.2.0-beta.1', title: 'CSV export beta', notes: 'Try the CSV export.', days: 2, beta: 1, required: 0 },
  ];
  for (const release of releases) {
    await db.run(
      `INSERT INTO releases (id, project_id, version, title, release_notes, download_url, release_date, is_beta, git_commit, required, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
      [newId('rel'), projectId, release.version, release.title, release.notes, `https://example.com/download/${release.version}`, ago(release.days), release.beta, release.required, nowIso()],
    );
  }
}
