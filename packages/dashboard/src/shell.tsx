/** The frame of every screen: a skip link, the header with navigation and sign-out, and the page. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useNavigation } from 'react-router';
import { api, fetchMe, ME_KEY, unwrap } from './api/client.ts';
import { Button, ErrorNote } from './ui.tsx';

export function Shell() {
  const me = useQuery({ queryKey: ME_KEY, queryFn: fetchMe });
  const navigation = useNavigation();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/sign-out')),
    // A fresh page: nothing the signed-in account saw stays in memory.
    onSuccess: () => window.location.assign(`${import.meta.env.BASE_URL}sign-in`),
  });
  const account = me.data;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          Signpost
        </Link>
        {account ? (
          <nav aria-label="Main" className="main-nav">
            <NavLink to="/" end>
              Home
            </NavLink>
            <NavLink to="/projects">Projects</NavLink>
            <NavLink to="/teams">Teams</NavLink>
            <NavLink to="/account">Account</NavLink>
          </nav>
        ) : null}
        <div className="top-end">
          {account ? (
            <>
              <span className="who">{account.email}</span>
              <Button variant="quiet" onPress={() => signOut.mutate()} busy={signOut.isPending}>
                Sign out
              </Button>
            </>
          ) : null}
        </div>
      </header>
      {signOut.error ? <ErrorNote error={signOut.error} /> : null}
      <main id="main" tabIndex={-1} aria-busy={navigation.state === 'loading'}>
        <Outlet />
      </main>
    </>
  );
}
