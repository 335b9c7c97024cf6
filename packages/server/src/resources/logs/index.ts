/** Logs: what other resources, the surfaces, seed and cli may use. */
export { LOG_LEVELS, type LogEntry } from './schemas.ts';
// The log explorer's reads, for the bench's in-process timing (packages/bench/src/log-explorer.ts).
export {
  cappedLogStatusCounts,
  countLogGroups,
  getLogGroup,
  listLogPage,
  logHistogramRows,
  type LogFilter,
} from './store.ts';
export { storeLogBatch } from './log-writer.ts';
// The lines' reads, for the bench's in-process timing (packages/bench/src/log-lines.ts).
export { listLinePage, type LineFilter } from './store-line-reads.ts';
export { lineHistogramRows } from './store-count-reads.ts';
export { logHistogram, MINUTE_VOLUME_HOURS } from './histogram.ts';
export { parseLogSearch } from './field-filter.ts';
// The lines' retention and their partitions, for the retention bench (packages/bench/src/retention-lines.ts)
// and the bench's seed (what the lines worker would have deleted by then).
export {
  BATCH as LINE_BATCH,
  expireLines,
  MINUTE_UNITS,
  pruneMinuteVolume,
  VOLUME_BATCH,
} from './store-line-upkeep.ts';
export { logLinePartitions } from './partitions.ts';
// Erasing a person (resources/people/service.ts), in its transaction.
export { eraseLogUser } from './store-lines.ts';
