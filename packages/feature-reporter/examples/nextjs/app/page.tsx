// Next.js App Router: read the board on the server (the key never reaches the browser),
// render the feedback widget on the client (see feedback.tsx).
import { createFeatureReporter } from '@signpost/feature-reporter';
import { Feedback } from './feedback';

const reporter = createFeatureReporter({
  baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
  apiKey: process.env.SIGNPOST_API_KEY ?? 'svc_live_demo_signpostpublicdemokey0001',
});

export default async function Page() {
  const [roadmap, changelog] = await Promise.all([
    reporter.getRoadmap({ status: 'planned' }),
    reporter.getChangelog({ limit: 5 }),
  ]);
  return (
    <main>
      <h1>Planned</h1>
      <ul>
        {roadmap.columns[0]!.items.map((item) => (
          <li key={item.id}>{item.title}</li>
        ))}
      </ul>
      <h2>What changed</h2>
      <ul>
        {changelog.entries.map((entry) => (
          <li key={entry.id}>{entry.summary}</li>
        ))}
      </ul>
      <Feedback />
    </main>
  );
}
