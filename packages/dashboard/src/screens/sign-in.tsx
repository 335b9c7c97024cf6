import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ME_KEY, unwrap } from '../api/client.ts';
import { fieldErrors, nextPath } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { AuthForm } from '../widgets/auth-form.tsx';
import { EmailField, PasswordField } from '../widgets/account-fields.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

/** `?next=` carried over to the other signed-out screens, so the visitor still lands where they wanted. */
export function withNext(path: string, search: URLSearchParams): string {
  const next = search.get('next');
  return next && next !== '/' ? `${path}?next=${encodeURIComponent(next)}` : path;
}

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useTitle('Sign in');
  const provider = useApiQuery(['identity-provider'], () => api.GET('/auth/oidc'), {
    staleTime: Number.POSITIVE_INFINITY,
  });
  const signIn = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/sign-in', { body: { email, password } })),
    onSuccess: async (data) => {
      queryClient.setQueryData(ME_KEY, data.account);
      await navigate(nextPath(search));
    },
  });
  const errors = fieldErrors(signIn.error);
  const oidc = provider.data;
  const returnTo = `/app${nextPath(search)}`;
  const otherWays = (
    <>
      {oidc?.enabled && oidc.startUrl ? (
        <p className="alt">
          <a className="button button-secondary" href={`${oidc.startUrl}?returnTo=${encodeURIComponent(returnTo)}`}>
            Sign in with {oidc.label ?? 'your identity provider'}
          </a>
        </p>
      ) : null}
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        New here? <Link to={withNext('/sign-up', search)}>Create an account</Link>
      </p>
    </>
  );
  return (
    <AuthForm title="Sign in" request={signIn} submitLabel="Sign in" busyLabel="Signing in…" after={otherWays}>
      <EmailField value={email} onChange={setEmail} error={errors['email']} />
      <PasswordField value={password} onChange={setPassword} error={errors['password']} />
    </AuthForm>
  );
}
