// React 18+: a roadmap with vote buttons and the feedback widget.
// Mount it with: createRoot(document.getElementById('root')!).render(<App />)
import { useState } from 'react';
import { anonymousVoterId } from '@signpost/feature-reporter';
import {
  FeatureReporterProvider,
  FeedbackWidget,
  useFeatureReporter,
  useRoadmap,
} from '@signpost/feature-reporter/react';

const options = {
  apiKey: 'svc_live_demo_signpostpublicdemokey0001',
  baseUrl: 'http://localhost:3000/api/public/v1',
};

function Roadmap() {
  const reporter = useFeatureReporter();
  const { data, error, loading, reload } = useRoadmap({ status: ['planned', 'in-progress'] });
  const [voted, setVoted] = useState<string[]>([]);
  if (loading && !data) return <p>Loading the roadmap…</p>;
  if (error) return <p role="alert">The roadmap could not be loaded.</p>;
  async function vote(id: string) {
    await reporter.vote(id, anonymousVoterId());
    setVoted((v) => [...v, id]);
    reload();
  }
  return (
    <div>
      {data!.columns.map((column) => (
        <section key={column.status}>
          <h2>{column.status}</h2>
          <ul>
            {column.items.map((item) => (
              <li key={item.id}>
                {item.title} <span className="votes">{item.voteCount}</span>{' '}
                <button type="button" onClick={() => vote(item.id)} disabled={voted.includes(item.id)}>
                  Vote
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export function App() {
  return (
    <FeatureReporterProvider options={options}>
      <h1>Roadmap</h1>
      <Roadmap />
      <FeedbackWidget
        {...options}
        position="bottom-right"
        onSubmitted={(e) => console.log('filed', e.detail.feature.id)}
      />
    </FeatureReporterProvider>
  );
}
