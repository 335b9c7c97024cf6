/**
 * Stacked bars over time (uPlot on a canvas), one colour per series, with a text alternative: a
 * caption that sums the range up, a legend, and the numbers of every non-empty bucket in a table
 * behind a disclosure. The canvas itself is hidden from assistive technology; the caption and the
 * table say what it shows. Colours come from CSS custom properties (histogram.css), read again when
 * the colour scheme changes, so the chart follows light and dark.
 */
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './histogram.css';
import { DataTable } from './data-table.tsx';
import { drawChart } from './draw-chart.ts';
import { useDarkScheme } from '../use-dark-scheme.ts';

export interface HistogramSeries {
  key: string;
  label: string;
}

export interface HistogramBucket {
  /** ISO start of the bucket. */
  start: string;
  total: number;
  values: Record<string, number>;
}

export type BucketSize = 'minute' | 'hour' | 'day';

const UNIT_WORD: Record<BucketSize, string> = { minute: 'minute', hour: 'hour', day: 'day' };

/** A bucket's start in the reader's locale, as precise as the bucket. */
export function bucketLabel(iso: string, size: BucketSize): string {
  const date = new Date(iso);
  return size === 'day'
    ? date.toLocaleDateString(undefined, { dateStyle: 'medium' })
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function StackedHistogram({
  label,
  noun,
  singular,
  series,
  buckets,
  size,
  height = 200,
}: {
  /** What the chart shows, e.g. "Log groups by level over time". */
  label: string;
  /** What is counted, plural (e.g. "log groups"). */
  noun: string;
  /** The same, singular (e.g. "log group"). */
  singular: string;
  /** Bottom of the stack first. */
  series: readonly HistogramSeries[];
  buckets: readonly HistogramBucket[];
  size: BucketSize;
  height?: number;
}) {
  const figure = useRef<HTMLElement>(null);
  const plotBox = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();

  const totals = useMemo(() => {
    const sums: Record<string, number> = Object.fromEntries(series.map((s) => [s.key, 0]));
    for (const bucket of buckets)
      for (const s of series) sums[s.key] = (sums[s.key] ?? 0) + (bucket.values[s.key] ?? 0);
    return sums;
  }, [series, buckets]);
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  const busiest = buckets.reduce<HistogramBucket | null>(
    (best, bucket) => (bucket.total > (best?.total ?? 0) ? bucket : best),
    null,
  );
  const nonEmpty = buckets.filter((bucket) => bucket.total > 0);

  const summary =
    total === 0
      ? `No ${noun} in this range.`
      : `${total} ${total === 1 ? singular : noun}: ${series
          .filter((s) => (totals[s.key] ?? 0) > 0)
          .map((s) => `${totals[s.key]} ${s.label.toLowerCase()}`)
          .join(
            ', ',
          )}. Busiest ${UNIT_WORD[size]}: ${busiest ? `${bucketLabel(busiest.start, size)} (${busiest.total})` : '–'}.`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: `dark` redraws with the scheme's colours (read from CSS)
  useEffect(() => {
    const box = plotBox.current;
    const host = figure.current;
    if (!box || !host) return;
    const styles = getComputedStyle(host);
    const colour = (name: string) => styles.getPropertyValue(name).trim() || '#888';
    const axisColour = styles.getPropertyValue('--muted').trim() || '#666';
    const gridColour = styles.getPropertyValue('--border').trim() || '#ccc';
    const xs = buckets.map((bucket) => Date.parse(bucket.start) / 1000);
    const step = xs.length > 1 ? xs[1]! - xs[0]! : 3600;
    // Stacked: each drawn series is the sum of itself and those below; the tallest is drawn
    // first and the lower ones over it.
    const cumulative: number[][] = [];
    let running = buckets.map(() => 0);
    for (const s of series) {
      running = running.map((sum, i) => sum + (buckets[i]?.values[s.key] ?? 0));
      cumulative.push(running);
    }
    const order = series.map((s, i) => ({ s, data: cumulative[i]! })).reverse();
    const bars = uPlot.paths.bars?.({ size: [0.85, 48], align: 1 });
    const options: Omit<uPlot.Options, 'width'> = {
      height,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        // Bars start at their bucket's time (align 1): a bucket's width of room after the last
        // one, or it would be drawn outside the plot.
        x: { time: true, range: (_u, min, max) => [min, max + step] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        { stroke: axisColour, grid: { stroke: gridColour, width: 1 }, ticks: { stroke: gridColour, width: 1 } },
        {
          stroke: axisColour,
          grid: { stroke: gridColour, width: 1 },
          ticks: { stroke: gridColour, width: 1 },
          size: 48,
          // Counts are whole numbers.
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6],
        },
      ],
      series: [
        {},
        ...order.map(({ s }) => ({
          label: s.label,
          fill: colour(`--level-${s.key}`),
          stroke: colour(`--level-${s.key}`),
          width: 0,
          points: { show: false },
          ...(bars ? { paths: bars } : {}),
        })),
      ],
    };
    return drawChart(box, options, [xs, ...order.map(({ data }) => data)] as uPlot.AlignedData, 200);
  }, [buckets, series, height, dark]);

  return (
    <figure ref={figure} className="histogram card" aria-label={label}>
      <figcaption>
        <strong>{label}</strong> <span data-testid="histogram-summary">{summary}</span>
      </figcaption>
      <div ref={plotBox} className="histogram-plot" aria-hidden="true" />
      <ul className="histogram-legend" aria-label="Legend">
        {series.map((s) => (
          <li key={s.key}>
            <span className={`histogram-swatch histogram-swatch-${s.key}`} aria-hidden="true" />
            {s.label}: {totals[s.key] ?? 0}
          </li>
        ))}
      </ul>
      {nonEmpty.length > 0 ? (
        <details>
          <summary>Show the numbers per {UNIT_WORD[size]}</summary>
          <DataTable
            caption={`${label}, per ${UNIT_WORD[size]} (empty ones left out)`}
            columns={[
              size === 'day' ? 'Day' : 'From',
              ...series.map((s) => ({ label: s.label, className: 'num' })),
              { label: 'Total', className: 'num' },
            ]}
          >
            {nonEmpty.map((bucket) => (
              <tr key={bucket.start}>
                <th scope="row">
                  <time dateTime={bucket.start}>{bucketLabel(bucket.start, size)}</time>
                </th>
                {series.map((s) => (
                  <td key={s.key} className="num">
                    {bucket.values[s.key] ?? 0}
                  </td>
                ))}
                <td className="num">{bucket.total}</td>
              </tr>
            ))}
          </DataTable>
        </details>
      ) : null}
    </figure>
  );
}
