// React 18+: flags, status messages and the maintenance state as hooks.
// Mount it with: createRoot(document.getElementById('root')!).render(<App />)
import { SiteManagerProvider, useFeatureFlag, useMaintenance, useStatusMessages } from '@signpost/site-manager/react';

function Messages() {
  const messages = useStatusMessages();
  return (
    <>
      {messages.map((m) => (
        <p key={m.id} role={m.type === 'error' ? 'alert' : 'status'} className={`message ${m.type}`}>
          {m.text}
        </p>
      ))}
    </>
  );
}

function Dashboard() {
  const newDashboard = useFeatureFlag('new-dashboard', false); // false while loading
  return <h1>{newDashboard ? 'New dashboard' : 'Classic dashboard'}</h1>;
}

function Gate({ children }: { children: React.ReactNode }) {
  const maintenance = useMaintenance();
  if (maintenance.blocked) return <h1>Down for maintenance</h1>;
  return (
    <>
      {maintenance.banner && <p className="banner">Maintenance in progress</p>}
      {children}
    </>
  );
}

export function App() {
  return (
    <SiteManagerProvider options={{ baseUrl: 'http://localhost:3000/api/public/v1', projectId: 'demo' }}>
      <Gate>
        <Messages />
        <Dashboard />
      </Gate>
    </SiteManagerProvider>
  );
}
