// Node.js: report handled errors yourself; uncaught ones are reported by the handlers `init`
// installs. Run with
//   SIGNPOST_API_KEY=svc_live_… SIGNPOST_URL=http://localhost:3000/api/public/v1 node node.mjs
import { captureException, captureMessage, flush, init, setUser } from '@signpost/error-tracker/node';

init({
  apiKey: process.env.SIGNPOST_API_KEY,
  baseUrl: process.env.SIGNPOST_URL, // default http://localhost:3000/api/public/v1
  environment: 'production',
  release: '1.4.2',
});
setUser({ id: 'worker-7' });

try {
  JSON.parse('{ "broken": ');
} catch (error) {
  const report = await captureException(error, { severity: 'low', metadata: { file: 'settings.json' } });
  console.log(`reported ${report?.id}`);
}

console.warn('Disk usage at 91%'); // kept as a breadcrumb of the next report
await captureMessage('Cache warm-up took longer than 30 s', 'medium');
await flush();

// An uncaught error: reported (severity critical), then the process prints it and exits with
// code 1, as Node.js would without the tracker.
setTimeout(() => {
  throw new RangeError('Invalid array length in the nightly report');
}, 10);
