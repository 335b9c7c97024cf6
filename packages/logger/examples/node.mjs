// Node.js: structured logs to Signpost. Run with
//   SIGNPOST_API_KEY=svc_live_… SIGNPOST_URL=http://localhost:3000/api/public/v1 node node.mjs
import { createLogger } from '@signpost/logger';

const log = createLogger({
  apiKey: process.env.SIGNPOST_API_KEY,
  baseUrl: process.env.SIGNPOST_URL, // default http://localhost:3000/api/public/v1
  category: 'worker',
  appVersion: '1.4.2',
  console: 'warn', // also print warnings and errors locally
});

log.info('Worker started', { pid: process.pid, node: process.version });

// A child logger shares the queue and adds its own defaults.
const jobs = log.child({ category: 'jobs', data: { queue: 'emails' } });
jobs.debug('Not sent: below the default level (info)');
jobs.info('Job finished', { jobId: 'job_42', ms: 118 });

// Errors become { name, message, stack } in data.
try {
  JSON.parse('{ not json');
} catch (error) {
  jobs.error(error, { jobId: 'job_43' });
}

// Entries with the same fingerprint are counted on one row on the server.
for (let attempt = 1; attempt <= 3; attempt++) {
  jobs.warn(`Retrying SMTP connection (attempt ${attempt})`, { attempt }, { fingerprint: 'smtp-retry' });
}

// Entries go out in batches (100 at most, every 5 s). When the event loop runs dry the logger
// flushes by itself (`beforeExit`); before `process.exit()`, await it:
await log.flush();
console.log(`sent ${log.stats.sent} entries`);
