// React: create the logger once, provide it, and log from components with useLogger.
import { useEffect } from 'react';
import { createLogger } from '@signpost/logger';
import { LoggerProvider, useLogger } from '@signpost/logger/react';

const logger = createLogger({
  apiKey: 'svc_live_your_key',
  baseUrl: 'http://localhost:3000/api/public/v1',
  appVersion: '1.4.2',
});

export function Checkout({ cartId }: { cartId: string }) {
  const log = useLogger({ category: 'checkout' });

  useEffect(() => {
    log.info('Checkout opened', { cartId });
  }, [log, cartId]);

  async function pay() {
    try {
      const res = await fetch('/api/pay', { method: 'POST', body: JSON.stringify({ cartId }) });
      if (!res.ok) log.warn('Payment refused', { cartId, status: res.status }, { fingerprint: 'payment-refused' });
    } catch (error) {
      log.error(error, { cartId });
    }
  }

  return (
    <button type="button" onClick={pay}>
      Pay
    </button>
  );
}

export function App() {
  return (
    <LoggerProvider logger={logger}>
      <Checkout cartId="cart_1" />
    </LoggerProvider>
  );
}
