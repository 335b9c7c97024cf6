/** Ask for a password reset link. The answer is the same whether or not the address has an account. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { fieldErrors, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { AuthForm } from '../widgets/auth-form.tsx';
import { EmailField } from '../widgets/account-fields.tsx';

export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  useTitle('Forgot your password?');
  const request = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/password-reset', { body: { email } })),
  });
  const errors = fieldErrors(request.error);
  const intro = (
    <p>Type the address you sign in with. If it has an account, we e-mail it a link to choose a new password.</p>
  );
  const after = (
    <>
      {request.isSuccess ? (
        <Note>
          {request.data.message}. The link works for a limited time; check your spam folder if nothing arrives.
        </Note>
      ) : null}
      <p>
        Remembered it? <Link to="/sign-in">Sign in</Link>
      </p>
    </>
  );
  return (
    <AuthForm
      title="Forgot your password?"
      intro={intro}
      request={request}
      submitLabel="Send reset link"
      busyLabel="Sending…"
      after={after}
    >
      <EmailField value={email} onChange={setEmail} error={errors['email']} />
    </AuthForm>
  );
}
