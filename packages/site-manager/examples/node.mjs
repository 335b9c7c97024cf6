// Node.js 18+: read flags, maintenance and status messages, react to changes, check the version.
// Runs against a local server (`npm start` in the Signpost repo, demo project) or set
// SIGNPOST_URL and SIGNPOST_PROJECT.
import { createSiteManager } from '@signpost/site-manager';

const site = createSiteManager({
  baseUrl: process.env.SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
  projectId: process.env.SIGNPOST_PROJECT ?? 'demo',
  appVersion: '1.0.0',
  refreshIntervalMs: 30_000, // polling timers never keep the process alive
});

console.log('before loading, new-dashboard =', site.isEnabled('new-dashboard', false)); // the default
await site.ready;
console.log('new-dashboard =', site.isEnabled('new-dashboard'));
console.log('beta-export =', site.isEnabled('beta-export'));
console.log('maintenance blocks:', site.maintenance().blocked);
for (const message of site.messages()) console.log(`[${message.type}] ${message.text}`);

// A request handler can pass the client's IP and user so the whitelist applies to them.
site.setClientIp('203.0.113.7');
site.setUser({ email: 'ops@example.com' });

site.on('change', ({ flagsChanged }) => console.log('flags changed:', flagsChanged));

const version = await site.checkVersion();
if (version.updateAvailable) console.log(`update ${version.updateType}: ${version.latestVersion?.version}`);

site.close();
