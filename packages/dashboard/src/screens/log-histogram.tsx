/** Log lines by level over time, as the logs screen and a log group's page chart them. */
import { LEVEL_LABELS, LEVELS } from '../api/logs.ts';
import { type BucketSize, StackedHistogram } from '../widgets/histogram.tsx';
import { QueryView } from '../widgets/states.tsx';

const LEVEL_SERIES = LEVELS.map((level) => ({ key: level, label: LEVEL_LABELS[level] }));

/** A histogram answer of the logs API: buckets of one size, each with its count per level. */
interface LevelBuckets {
  bucket: BucketSize;
  buckets: readonly { start: string; total: number; levels: Record<string, number> }[];
}

export function LevelHistogram({
  query,
  label,
  what,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: LevelBuckets | undefined };
  /** The chart's name for screen readers. */
  label: string;
  /** What loads, for the loading state: "the chart". */
  what: string;
}) {
  return (
    <QueryView query={query} what={what}>
      {(data) => (
        <StackedHistogram
          label={label}
          noun="log lines"
          singular="log line"
          series={LEVEL_SERIES}
          size={data.bucket}
          buckets={data.buckets.map((bucket) => ({ start: bucket.start, total: bucket.total, values: bucket.levels }))}
        />
      )}
    </QueryView>
  );
}
