/**
 * A bar chart of counts over time (uPlot), in the theme's colours (light and dark, following the
 * system setting), with a text alternative: a summary read by everyone and the numbers as a table
 * for screen readers. The canvas itself is hidden from assistive technology.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './time-chart.css';
import { useDarkScheme } from '../use-dark-scheme.ts';
import { drawChart } from './draw-chart.ts';

export interface TimeBucket {
  /** ISO start of the bucket. */
  start: string;
  count: number;
}

function themeColours() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    bar: read('--accent', '#2450b8'),
    text: read('--muted', '#4f5966'),
    grid: read('--border', '#c9d0d9'),
  };
}

export function TimeChart({
  buckets,
  bucket,
  label,
  unit = 'occurrences',
}: {
  buckets: readonly TimeBucket[];
  bucket: 'hour' | 'day';
  /** What the chart shows, e.g. "Occurrences in the last 24 hours, by hour". */
  label: string;
  unit?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useDarkScheme() ? 'dark' : 'light';
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  const peak = buckets.reduce<TimeBucket | undefined>(
    (best, b) => (!best || b.count > best.count ? b : best),
    undefined,
  );
  const format = (iso: string) =>
    bucket === 'hour'
      ? new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
      : new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of colour scheme redraws with the new theme colours
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const colours = themeColours();
    const xs = buckets.map((b) => Date.parse(b.start) / 1000);
    const ys = buckets.map((b) => b.count);
    return drawChart(
      element,
      {
        height: 180,
        legend: { show: false },
        cursor: { show: true, drag: { x: false, y: false } },
        // Half a bucket of room on either side, so the first and last bars are whole.
        scales: {
          x: {
            time: true,
            range: (_u, min, max) => {
              const half = (bucket === 'hour' ? 3600 : 86_400) / 2;
              return [min - half, max + half];
            },
          },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { stroke: colours.text, grid: { stroke: colours.grid, width: 1 }, ticks: { stroke: colours.grid } },
          {
            stroke: colours.text,
            grid: { stroke: colours.grid, width: 1 },
            ticks: { stroke: colours.grid },
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 10000],
          },
        ],
        series: [
          {},
          {
            label: unit,
            stroke: colours.bar,
            fill: colours.bar,
            width: 0,
            paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
            points: { show: false },
          },
        ],
      },
      [xs, ys],
      240,
    );
  }, [buckets, bucket, scheme, unit]);

  return (
    <figure className="time-chart">
      <figcaption className="time-chart-summary">
        {label}: <strong>{total}</strong> {unit}
        {peak && peak.count > 0
          ? `, most (${peak.count}) ${bucket === 'hour' ? 'in the hour from' : 'on'} ${format(peak.start)}`
          : ''}
        .
      </figcaption>
      <div ref={box} className="time-chart-canvas" aria-hidden="true" />
      <table className="visually-hidden">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">{bucket === 'hour' ? 'Hour' : 'Day'}</th>
            <th scope="col">{unit}</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((b) => (
            <tr key={b.start}>
              <td>{format(b.start)}</td>
              <td>{b.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
