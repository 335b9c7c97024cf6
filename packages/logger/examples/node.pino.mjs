// pino: keep your logger, ship its output to Signpost through the transport. Run with
//   SIGNPOST_API_KEY=svc_live_… SIGNPOST_URL=http://localhost:3000/api/public/v1 node node.pino.mjs
import pino from 'pino';

const transport = pino.transport({
  target: '@signpost/logger/pino',
  options: {
    apiKey: process.env.SIGNPOST_API_KEY,
    baseUrl: process.env.SIGNPOST_URL,
    appVersion: '1.4.2',
  },
});
const logger = pino({ name: 'billing', level: 'info' }, transport);

logger.info({ invoiceId: 'inv_7' }, 'Invoice sent');
logger.error({ err: new Error('card declined'), fingerprint: 'card-declined' }, 'Payment failed');

// pino flushes the transport when the process exits; `end()` does it now (it waits for the
// worker thread to send what is buffered).
transport.on('finish', () => console.log('pino transport flushed'));
transport.end();
