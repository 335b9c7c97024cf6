/** The frame of every screen: a skip link, the header with navigation and sign-out, and the page. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, NavLink, Outlet, useNavigate, useNavigation } from 'react-router';
import { api, fetchMe, ME_KEY, unwrap } from './api/client.ts';
import { Button, ErrorNote } from './ui.tsx';

export function Shell() {
  const me = useQuery({ queryKey: ME_KEY, queryFn: fetchMe });
  const navigation = useNavigation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/sign-out')),
    onSuccess: async () => {
      queryClient.setQueryData(ME_KEY, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== ME_KEY[0] });
      await navigate('/sign-in');
    },
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
          <nav aria-label="Main">
            <NavLink to="/" end>
              Home
            </NavLink>
            <NavLink to="/account">Account</NavLink>
          </nav>
        ) : null}
        <div className="top-end">
          {account ? (
            <>
              <span className="who">{account.email}</span>
              <Button variant="quiet" onPress={() => signOut.mutate()} isPending={signOut.isPending}>
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
