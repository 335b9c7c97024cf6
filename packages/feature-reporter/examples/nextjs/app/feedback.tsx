'use client';
// The widget submits from the browser, so it takes a public key with `features:write`
// (NEXT_PUBLIC_ variables are inlined into the client bundle).
import { FeedbackWidget } from '@signpost/feature-reporter/react';

export function Feedback() {
  return (
    <FeedbackWidget
      apiKey={process.env.NEXT_PUBLIC_SIGNPOST_KEY ?? 'svc_live_demo_signpostpublicdemokey0001'}
      baseUrl={process.env.NEXT_PUBLIC_SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1'}
      texts={{ trigger: 'Ideas & bugs' }}
    />
  );
}
