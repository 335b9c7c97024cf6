import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, ME_KEY, unwrap } from '../api/client.ts';
import { Button, ErrorNote, Note, RequireAccount } from '../ui.tsx';

function EmailStatus({ email, verified }: { email: string; verified: boolean }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/me/verification-email')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
  return (
    <div className="stack">
      <dl className="facts">
        <dt>E-mail address</dt>
        <dd>{email}</dd>
        <dt>Status</dt>
        <dd>
          {verified ? (
            <span className="badge badge-ok">Verified</span>
          ) : (
            <span className="badge badge-warn">Not verified</span>
          )}
        </dd>
      </dl>
      {verified ? null : (
        <div className="stack">
          <p>We sent a link to this address. Open it to verify the address, or have a new one sent.</p>
          <div>
            <Button variant="secondary" onPress={() => resend.mutate()} busy={resend.isPending}>
              {resend.isPending ? 'Sending…' : 'Resend'}
            </Button>
          </div>
          {resend.isSuccess ? <Note>{resend.data.message}</Note> : null}
          {resend.error ? <ErrorNote error={resend.error} /> : null}
        </div>
      )}
    </div>
  );
}

export default function AccountPage() {
  useEffect(() => {
    document.title = 'Account · Signpost';
  }, []);
  return (
    <RequireAccount>
      {(account) => (
        <section className="card" aria-labelledby="account-title">
          <h1 id="account-title">Your account</h1>
          <dl className="facts">
            <dt>Name</dt>
            <dd>{account.name || '(none)'}</dd>
            <dt>Member since</dt>
            <dd>{new Date(account.createdAt).toLocaleDateString()}</dd>
          </dl>
          <h2>E-mail</h2>
          <EmailStatus email={account.email} verified={account.verified} />
        </section>
      )}
    </RequireAccount>
  );
}
