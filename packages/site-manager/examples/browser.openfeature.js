// The OpenFeature web SDK with Signpost flags: evaluations are synchronous, from the cache.
import { OpenFeature, ProviderEvents } from '@openfeature/web-sdk';
import { SignpostProvider } from '@signpost/site-manager/openfeature';

await OpenFeature.setProviderAndWait(
  new SignpostProvider({
    baseUrl: 'http://localhost:3000/api/public/v1',
    projectId: 'demo',
    refreshIntervalMs: 15_000,
  }),
);
const client = OpenFeature.getClient();

function render() {
  document.body.dataset.newDashboard = String(client.getBooleanValue('new-dashboard', false));
}
render();
// Fired when a flag is switched in Signpost (seen on the next poll).
client.addHandler(ProviderEvents.ConfigurationChanged, (event) => {
  console.log('changed flags:', event?.flagsChanged);
  render();
});
