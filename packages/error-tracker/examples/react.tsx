// React: init once at startup, wrap parts of the UI in an ErrorBoundary.
import { useState } from 'react';
import { init } from '@signpost/error-tracker';
import { ErrorBoundary } from '@signpost/error-tracker/react';

init({
  apiKey: 'svc_live_your_key',
  baseUrl: 'http://localhost:3000/api/public/v1',
  environment: 'production',
  release: '1.4.2',
});

function Cart({ items }: { items: { price: number }[] | undefined }) {
  // Throws while rendering when items is undefined.
  const total = items!.reduce((sum, item) => sum + item.price, 0);
  return <p>Total: {total}</p>;
}

export function App() {
  const [items, setItems] = useState<{ price: number }[] | undefined>([{ price: 5 }]);
  return (
    <main>
      <button type="button" id="break" onClick={() => setItems(undefined)}>
        Break the cart
      </button>
      <ErrorBoundary
        fallback={({ error, resetError }) => (
          <div role="alert">
            <p>The cart could not be shown: {(error as Error).message}</p>
            <button
              type="button"
              id="retry"
              onClick={() => {
                setItems([]);
                resetError();
              }}
            >
              Try again
            </button>
          </div>
        )}
        beforeCapture={() => ({ metadata: { area: 'cart' } })}
        onError={(error) => console.info('cart failed', (error as Error).message)}
      >
        <Cart items={items} />
      </ErrorBoundary>
    </main>
  );
}
