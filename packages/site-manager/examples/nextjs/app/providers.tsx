'use client';
import type { SiteConfig } from '@signpost/site-manager';
import { SiteManagerProvider, useFeatureFlag, useMaintenance } from '@signpost/site-manager/react';

export function Providers({
  initialConfig,
  children,
}: {
  initialConfig: SiteConfig | undefined;
  children: React.ReactNode;
}) {
  return (
    <SiteManagerProvider
      options={{
        baseUrl: process.env.NEXT_PUBLIC_SIGNPOST_URL ?? 'http://localhost:3000/api/public/v1',
        projectId: process.env.NEXT_PUBLIC_SIGNPOST_PROJECT ?? 'demo',
        ...(initialConfig ? { initialConfig } : {}),
      }}
    >
      <MaintenanceGate>{children}</MaintenanceGate>
    </SiteManagerProvider>
  );
}

function MaintenanceGate({ children }: { children: React.ReactNode }) {
  const maintenance = useMaintenance();
  const newDashboard = useFeatureFlag('new-dashboard');
  if (maintenance.blocked)
    return (
      <main>
        <h1>We’ll be right back</h1>
      </main>
    );
  return <div data-new-dashboard={newDashboard}>{children}</div>;
}
