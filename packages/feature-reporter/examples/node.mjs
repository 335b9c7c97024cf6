// Node.js 18+: file a feature request and a bug, vote, comment, and read the public board.
// Run against a local server (`npm start` in the Signpost repo) with the demo key, or set
// SIGNPOST_URL and SIGNPOST_API_KEY.
import { createFeatureReporter, ApiError } from '@signpost/feature-reporter';

const reporter = createFeatureReporter({
  baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
  apiKey: process.env.SIGNPOST_API_KEY ?? 'svc_live_demo_signpostpublicdemokey0001',
  metadata: { app: 'node-example' },
});

const idea = await reporter.submitFeature({
  title: 'Export the roadmap as CSV',
  description: 'We share the roadmap with customers in spreadsheets every week.',
});
console.log(`filed ${idea.type} ${idea.id} (${idea.status})`);

const bug = await reporter.submitBug({
  title: 'Search ignores accents',
  description: 'Searching for "cafe" does not find "café".',
  contactEmail: 'dev@example.com',
});
console.log(`filed ${bug.type} ${bug.id} (${bug.status})`);

const { voteCount } = await reporter.vote(idea.id, 'user-42');
await reporter.addComment(idea.id, { body: 'Weekly would be enough for us.', authorName: 'Ada' });
console.log(`votes: ${voteCount}, comments: ${(await reporter.listComments(idea.id)).count}`);

const roadmap = await reporter.getRoadmap({ status: ['planned', 'in-progress'] });
for (const column of roadmap.columns)
  console.log(`${column.status}: ${column.items.map((i) => i.title).join(', ') || '-'}`);

const { entries } = await reporter.getChangelog({ limit: 3 });
for (const entry of entries) console.log(`changelog: ${entry.summary}`);

try {
  await reporter.getFeature('does-not-exist');
} catch (error) {
  if (error instanceof ApiError) console.log(`missing feature: ${error.status}`);
  else throw error;
}
