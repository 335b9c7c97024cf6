import type { Queryable } from '../db/database.ts';
import { backdateFeature, insertFeature } from '../resources/features/index.ts';
import { insertEntry } from '../resources/changelog/index.ts';
import { insertRelease } from '../resources/releases/index.ts';
import { insertEnvironment, insertMessage, putFlag } from '../resources/site-config/index.ts';
import { insertKey } from '../resources/translations/index.ts';

const ago = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString();

/** Sample data that makes every public read of the demo project show something real. */
export async function seedDemoProject(db: Queryable, projectId: string): Promise<void> {
  const scope = { projectId, environment: 'live' as const };
  const features = [
    {
      title: 'Dark mode',
      description: 'Offer a dark theme that follows the system setting.',
      status: 'planned',
      votes: 42,
    },
    {
      title: 'Export to CSV',
      description: 'Download any report as a CSV file for spreadsheets.',
      status: 'in-progress',
      votes: 17,
    },
    {
      title: 'Keyboard shortcuts',
      description: 'Navigate the whole app without touching the mouse.',
      status: 'open',
      votes: 9,
    },
    {
      title: 'Two-factor sign-in',
      description: 'Protect accounts with an authenticator app code.',
      status: 'done',
      votes: 55,
    },
    {
      title: 'Offline mode',
      description: 'Keep working while the network is down and sync later.',
      status: 'declined',
      votes: 3,
    },
    {
      title: 'Slack notifications',
      description: 'Post a message to a channel when a status changes.',
      status: 'in-review',
      votes: 12,
    },
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
    {
      featureId: ids[3]!,
      summary: 'Two-factor sign-in is here',
      description: '<p>Turn it on under <strong>Settings → Security</strong>.</p>',
      key: 'new',
      days: 5,
    },
    {
      featureId: null,
      summary: 'Faster dashboard',
      description: '<p>Pages load twice as fast.</p>',
      key: 'improved',
      days: 10,
    },
    {
      featureId: null,
      summary: 'Fixed time zones in reports',
      description: '<p>Reports now use your time zone.</p>',
      key: 'fixed',
      days: 15,
    },
  ] as const;
  for (const entry of changelog) {
    await insertEntry(db, projectId, {
      featureId: entry.featureId,
      summary: entry.summary,
      description: entry.description,
      statusKey: entry.key,
      published: true,
      createdAt: ago(entry.days + 1),
      publishedAt: ago(entry.days),
    });
  }
  await insertEntry(db, projectId, {
    featureId: null,
    summary: 'Draft: CSV export',
    description: '<p>Coming soon.</p>',
    statusKey: 'new',
    published: false,
  });

  await insertMessage(db, projectId, {
    type: 'info',
    text: 'Welcome to the Signpost demo project.',
    isActive: true,
    priority: 10,
  });
  for (const [key, enabled] of [
    ['new-dashboard', true],
    ['beta-export', false],
  ] as const)
    await putFlag(db, projectId, key, enabled);
  const environments = [
    { name: 'Production', slug: 'production', url: 'https://app.example.com', color: '#16a34a' },
    { name: 'Staging', slug: 'staging', url: 'https://staging.example.com', color: '#f59e0b', debugEnabled: true },
  ];
  for (const [position, env] of environments.entries()) await insertEnvironment(db, projectId, { ...env, position });

  const translations: Array<[string, string, string, string]> = [
    ['app.title', 'common', 'Demo App', 'Demo-App'],
    ['app.welcome', 'common', 'Welcome, {name}!', 'Willkommen, {name}!'],
    ['nav.roadmap', 'common', 'Roadmap', 'Roadmap'],
    ['nav.changelog', 'common', 'Changelog', 'Änderungen'],
    ['feedback.submit', 'feedback', 'Send feedback', 'Feedback senden'],
    ['feedback.thanks', 'feedback', 'Thanks for your feedback!', 'Danke für dein Feedback!'],
  ];
  for (const [key, namespace, en, de] of translations) {
    await insertKey(db, projectId, { key, namespace, defaultText: en, values: { en, de } });
  }

  const releases = [
    { version: '1.0.0', title: 'First release', notes: 'Hello, world.', days: 60, beta: false, required: true },
    {
      version: '1.1.0',
      title: 'Dark mode',
      notes: 'Adds dark mode and faster start-up.',
      days: 10,
      beta: false,
      required: false,
    },
    {
      version: '1.2.0-beta.1',
      title: 'CSV export beta',
      notes: 'Try the CSV export.',
      days: 2,
      beta: true,
      required: false,
    },
  ];
  for (const release of releases) {
    await insertRelease(db, projectId, {
      version: release.version,
      title: release.title,
      releaseNotes: release.notes,
      downloadUrl: `https://example.com/download/${release.version}`,
      releaseDate: ago(release.days),
      isBeta: release.beta,
      gitCommit: null,
      required: release.required,
    });
  }
}
