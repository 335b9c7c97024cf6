import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ME_KEY, unwrap } from '../api/client.ts';
import { Button, ErrorNote, Field, fieldErrors, nextPath } from '../ui.tsx';

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    document.title = 'Sign in · Signpost';
  }, []);
  const provider = useQuery({
    queryKey: ['identity-provider'],
    queryFn: () => unwrap(api.GET('/auth/oidc')),
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
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!signIn.isPending) signIn.mutate();
  };
  const oidc = provider.data;
  return (
    <section className="card narrow" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <Form onSubmit={submit} className="stack">
        {signIn.error ? <ErrorNote error={signIn.error} /> : null}
        <Field
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="username"
          isRequired
          value={email}
          onChange={setEmail}
          serverError={errors['email']}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          isRequired
          value={password}
          onChange={setPassword}
          serverError={errors['password']}
        />
        <Button type="submit" busy={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </Form>
      {oidc?.enabled && oidc.startUrl ? (
        <p className="alt">
          <a className="button button-secondary" href={`${oidc.startUrl}?returnTo=${encodeURIComponent('/app/')}`}>
            Sign in with {oidc.label ?? 'your identity provider'}
          </a>
        </p>
      ) : null}
      <p>
        New here? <Link to="/sign-up">Create an account</Link>
      </p>
    </section>
  );
}
