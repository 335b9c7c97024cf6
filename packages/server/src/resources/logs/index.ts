/** Logs: what other resources, the surfaces, seed and cli may use. */
export { LOG_LEVELS, type LogEntry } from './schemas.ts';
export { storeLogBatch } from './store.ts';
