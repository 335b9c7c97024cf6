/** The page the verification e-mail links to: confirms the address with the API, then says so. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ME_KEY, unwrap } from '../api/client.ts';
import { ErrorNote } from '../ui.tsx';

export default function VerifyEmail() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: () =>
      unwrap(api.GET('/auth/verify-email', { params: { query: { token } }, headers: { accept: 'application/json' } })),
    // The shell's first read of the account may still be on its way, started before the address was
    // verified: a plain invalidation would join that read and keep its stale "not verified" answer.
    onSuccess: async () => {
      await queryClient.cancelQueries({ queryKey: ME_KEY });
      await queryClient.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  // The link works once: confirm it once, even when React runs effects twice in development.
  const started = useRef(false);
  useEffect(() => {
    document.title = 'Verify your e-mail · Signpost';
    if (started.current || !token) return;
    started.current = true;
    verify.mutate();
  }, [token, verify]);
  return (
    <section className="card narrow" aria-labelledby="verify-title">
      <h1 id="verify-title">E-mail verification</h1>
      {!token ? (
        <p className="note note-error" role="alert">
          This link has no token. Open the link from the e-mail again, or ask for a new one from your account.
        </p>
      ) : verify.isSuccess ? (
        <div role="status">
          <p className="note note-ok">
            <strong>{verify.data.email}</strong> is verified.
          </p>
          <p>
            <Link to="/account">Go to your account</Link>
          </p>
        </div>
      ) : verify.isError ? (
        <>
          <ErrorNote error={verify.error} />
          <p>
            <Link to="/account">Ask for a new link from your account</Link>
          </p>
        </>
      ) : (
        <p className="loading">Verifying your address…</p>
      )}
    </section>
  );
}
