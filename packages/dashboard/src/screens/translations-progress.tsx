/** The translations screen's progress panel: how much of every key each locale has translated. */
import type { Summary } from '../api/translations.ts';
import { QueryView } from '../widgets/states.tsx';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

export function Progress({
  summary,
}: {
  summary: { isPending: boolean; isError: boolean; error: unknown; data: Summary | undefined };
}) {
  return (
    <section className="card stack" aria-labelledby="progress-title">
      <h2 id="progress-title">Progress</h2>
      <QueryView query={summary} what="progress">
        {(data) =>
          data.totalKeys === 0 ? (
            <p className="muted">No keys yet, so nothing to translate.</p>
          ) : (
            <ul className="translations-progress">
              {data.locales.map((entry) => {
                const share = percent(entry.translated, data.totalKeys);
                return (
                  <li key={entry.locale}>
                    <span id={`progress-${entry.locale}`} className="translations-progress-text">
                      <strong>{entry.locale}</strong>: {entry.translated} of {data.totalKeys} translated ({share}%)
                      {entry.supported ? '' : ' · not a supported locale'}
                    </span>
                    <meter
                      min={0}
                      max={data.totalKeys}
                      value={entry.translated}
                      aria-labelledby={`progress-${entry.locale}`}
                    >
                      {share}%
                    </meter>
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}
