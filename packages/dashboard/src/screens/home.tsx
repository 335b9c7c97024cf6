import { useEffect } from 'react';
import { Link } from 'react-router';
import { RequireAccount } from '../ui.tsx';

export default function Home() {
  useEffect(() => {
    document.title = 'Home · Signpost';
  }, []);
  return (
    <RequireAccount>
      {(account) => (
        <section aria-labelledby="home-title">
          <h1 id="home-title">Welcome{account.name ? `, ${account.name}` : ''}</h1>
          <p>
            You are signed in as <strong>{account.email}</strong>.
          </p>
          {account.verified ? null : (
            <p className="note note-warn">
              Your e-mail address is not verified yet. <Link to="/account">Verify it from your account</Link>.
            </p>
          )}
          <ul className="links">
            <li>
              <Link to="/account">Your account</Link>: e-mail status, name
            </li>
            <li>
              <a href="/api/v1/docs">Management API reference</a>
            </li>
          </ul>
        </section>
      )}
    </RequireAccount>
  );
}
