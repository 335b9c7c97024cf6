import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createErrorTracker } from '@signpost/error-tracker';
import { ErrorBoundary, ErrorTrackerProvider, useErrorTracker, withErrorBoundary } from '@signpost/error-tracker/react';

test("useErrorTracker returns the provider's tracker; ErrorBoundary renders its children", () => {
  const tracker = createErrorTracker({ apiKey: 'svc_test_x', onError: () => {} });
  let seen: unknown;
  const Probe = () => {
    seen = useErrorTracker();
    return createElement('span', null, 'ok');
  };
  const html = renderToString(
    createElement(
      ErrorTrackerProvider,
      { tracker },
      createElement(ErrorBoundary, { fallback: 'failed' }, createElement(Probe)),
    ),
  );
  assert.equal(html, '<span>ok</span>');
  assert.equal(seen, tracker);
});

test('withErrorBoundary wraps a component and names it', () => {
  const Hello = ({ name }: { name: string }) => createElement('b', null, `hi ${name}`);
  const Wrapped = withErrorBoundary(Hello, { fallback: 'x' });
  assert.equal(renderToString(createElement(Wrapped, { name: 'ada' })), '<b>hi ada</b>');
  assert.equal((Wrapped as { displayName?: string }).displayName, 'withErrorBoundary(Hello)');
});
