/**
 * The page the reset e-mail links to (`/app/reset-password?token=…`): a new password, posted with
 * the token. A refused password shows under its field; a used or expired link says so. Success
 * signs out every session, so the next step is signing in with the new password.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { fieldErrors } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { AuthForm } from '../widgets/auth-form.tsx';
import { PasswordField } from '../widgets/account-fields.tsx';

export default function ResetPassword() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [password, setPassword] = useState('');
  useTitle('Choose a new password');
  const reset = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/reset-password', { body: { token, password } })),
  });
  const errors = fieldErrors(reset.error);
  if (!token || reset.isSuccess) {
    return (
      <section className="card narrow" aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        {reset.isSuccess ? (
          <div className="stack">
            <p className="note note-ok" role="status">
              {reset.data.message}.
            </p>
            <p>
              <Link to="/sign-in">Sign in</Link>
            </p>
          </div>
        ) : (
          <>
            <p className="note note-error" role="alert">
              This link has no token. Open the link from the e-mail again, or ask for a new one.
            </p>
            <p>
              <Link to="/forgot-password">Ask for a new link</Link>
            </p>
          </>
        )}
      </section>
    );
  }
  // A refusal that is not about the password is about the link (used, expired, unknown).
  const linkProblem = reset.error && !errors['password'];
  const intro = <p>Every session of the account is signed out when the password changes.</p>;
  const newLink = linkProblem ? (
    <p>
      <Link to="/forgot-password">Ask for a new link</Link>
    </p>
  ) : null;
  return (
    <AuthForm
      title="Choose a new password"
      intro={intro}
      request={reset}
      submitLabel="Set new password"
      busyLabel="Saving…"
      after={newLink}
    >
      <PasswordField fresh label="New password" value={password} onChange={setPassword} error={errors['password']} />
    </AuthForm>
  );
}
