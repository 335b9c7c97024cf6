import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import { api, ME_KEY, unwrap } from '../api/client.ts';
import { Button, ErrorNote, Field, fieldErrors } from '../ui.tsx';

export default function SignUp() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    document.title = 'Create an account · Signpost';
  }, []);
  const signUp = useMutation({
    mutationFn: async () => {
      await unwrap(api.POST('/auth/sign-up', { body: { email, password, ...(name.trim() ? { name } : {}) } }));
      // The sign-up answers the same for a new and a taken address; signing in tells them apart.
      return unwrap(api.POST('/auth/sign-in', { body: { email, password } }));
    },
    onSuccess: async (data) => {
      queryClient.setQueryData(ME_KEY, data.account);
      await navigate('/account');
    },
  });
  const errors = fieldErrors(signUp.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!signUp.isPending) signUp.mutate();
  };
  return (
    <section className="card narrow" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">Create an account</h1>
      <Form onSubmit={submit} className="stack">
        {signUp.error ? <ErrorNote error={signUp.error} /> : null}
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          value={name}
          onChange={setName}
          serverError={errors['name']}
        />
        <Field
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          isRequired
          value={email}
          onChange={setEmail}
          serverError={errors['email']}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          description="At least 10 characters and hard to guess."
          isRequired
          value={password}
          onChange={setPassword}
          serverError={errors['password']}
        />
        <Button type="submit" busy={signUp.isPending}>
          {signUp.isPending ? 'Creating…' : 'Create account'}
        </Button>
      </Form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}
