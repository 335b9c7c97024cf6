// React: one logger for the app, used from components and effects.
import { useEffect } from 'react';
import { createLogger } from '@signpost/logger';

export const log = createLogger({
  apiKey: 'svc_live_your_key',
  baseUrl: 'http://localhost:3000/api/public/v1',
  category: 'ui',
});

export function Checkout({ cartId }: { cartId: string }) {
  useEffect(() => {
    log.info('Checkout opened', { cartId });
  }, [cartId]);

  async function pay() {
    try {
      const res = await fetch('/api/pay', { method: 'POST', body: JSON.stringify({ cartId }) });
      if (!res.ok) log.warn('Payment refused', { cartId, status: res.status }, { fingerprint: 'payment-refused' });
    } catch (error) {
      log.error(error as Error, { cartId });
    }
  }

  return (
    <button type="button" onClick={pay}>
      Pay
    </button>
  );
}
