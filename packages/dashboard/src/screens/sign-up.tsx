import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ME_KEY, unwrap } from '../api/client.ts';
import { fieldErrors } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { AuthForm } from '../widgets/auth-form.tsx';
import { withNext } from './sign-in.tsx';
import { EmailField, PasswordField, PersonNameField } from '../widgets/account-fields.tsx';

export default function SignUp() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useTitle('Create an account');
  const signUp = useMutation({
    mutationFn: async () => {
      await unwrap(api.POST('/auth/sign-up', { body: { email, password, ...(name.trim() ? { name } : {}) } }));
      // The sign-up answers the same for a new and a taken address; signing in tells them apart.
      return unwrap(api.POST('/auth/sign-in', { body: { email, password } }));
    },
    onSuccess: async (data) => {
      queryClient.setQueryData(ME_KEY, data.account);
      // An invite (or another page) asked for an account: back there; otherwise the account page.
      const next = search.get('next');
      await navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/account');
    },
  });
  const errors = fieldErrors(signUp.error);
  const signInInstead = (
    <p>
      Already have an account? <Link to={withNext('/sign-in', search)}>Sign in</Link>
    </p>
  );
  return (
    <AuthForm
      title="Create an account"
      request={signUp}
      submitLabel="Create account"
      busyLabel="Creating…"
      after={signInInstead}
    >
      <PersonNameField value={name} onChange={setName} error={errors['name']} />
      <EmailField autoComplete="email" value={email} onChange={setEmail} error={errors['email']} />
      <PasswordField fresh value={password} onChange={setPassword} error={errors['password']} />
    </AuthForm>
  );
}
