/**
 * The account page: the profile (name), the password, the e-mail address's status (with Resend
 * while it is not verified), and personal access tokens (create → shown once; list; revoke).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Account, api, ME_KEY, unwrap } from '../api/client.ts';
import { day, type TokenSummary } from '../api/accounts.ts';
import { Button, ErrorNote, Field, fieldErrors, Note, RequireAccount } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { ConfirmButton } from '../widgets/confirm.tsx';
import { ACTIONS, DataTable } from '../widgets/data-table.tsx';
import { SelectField } from '../widgets/fields.tsx';
import { SaveForm } from '../widgets/save-form.tsx';
import { Card } from '../widgets/card.tsx';
import { setAnd } from '../widgets/form-request.ts';
import { ShownOnce } from '../widgets/secret.tsx';
import { Empty, QueryView } from '../widgets/states.tsx';
import './account.css';
import { PasswordField, PersonNameField } from '../widgets/account-fields.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

const TOKENS_KEY = ['me', 'tokens'] as const;

function Profile({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(account.name);
  const save = useMutation({
    mutationFn: () => unwrap(api.PATCH('/me', { body: { name } })),
    onSuccess: (data) => queryClient.setQueryData(ME_KEY, data.account),
  });
  const errors = fieldErrors(save.error);
  return (
    <Card title="Profile" className="card">
      <dl className="facts">
        <dt>Member since</dt>
        <dd>{day(account.createdAt)}</dd>
      </dl>
      <SaveForm request={save} submitLabel="Save name" busyLabel="Saving…" done="Name saved.">
        <PersonNameField
          description="Shown to your teams and in invitations you send."
          value={name}
          onChange={setAnd(setName, save.reset)}
          error={errors['name']}
        />
      </SaveForm>
    </Card>
  );
}

function Password({ account }: { account: Account }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/me/password', {
          body: { ...(account.hasPassword ? { currentPassword: current } : {}), newPassword: next },
        }),
      ),
    onSuccess: () => {
      setCurrent('');
      setNext('');
    },
  });
  const errors = fieldErrors(change.error);
  return (
    <Card title="Password" className="card">
      <SaveForm
        request={change}
        submitLabel="Change password"
        busyLabel="Changing…"
        done="Password changed. Your other sessions are signed out."
      >
        {account.hasPassword ? (
          <PasswordField
            label="Current password"
            name="currentPassword"
            value={current}
            onChange={setCurrent}
            error={errors['currentPassword']}
          />
        ) : (
          <p>You sign in through your identity provider; you may also set a password.</p>
        )}
        <PasswordField
          fresh
          label="New password"
          name="newPassword"
          description="At least 10 characters and hard to guess. Your other sessions are signed out."
          value={next}
          onChange={setNext}
          error={errors['newPassword']}
        />
      </SaveForm>
    </Card>
  );
}

function EmailStatus({ email, verified }: { email: string; verified: boolean }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST('/me/verification-email')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
  return (
    <section className="card" aria-labelledby="email-title">
      <h2 id="email-title">E-mail</h2>
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
    </section>
  );
}

const EXPIRIES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;
type Expiry = (typeof EXPIRIES)[number]['value'];

function tokenState(token: TokenSummary): { label: string; ok: boolean } {
  if (token.revokedAt) return { label: 'Revoked', ok: false };
  if (token.expiresAt && token.expiresAt <= new Date().toISOString()) return { label: 'Expired', ok: false };
  return { label: 'Active', ok: true };
}

function Tokens() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<Expiry>('90');
  const tokens = useApiQuery(TOKENS_KEY, () => api.GET('/me/tokens'));
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/me/tokens', {
          body: { name, ...(expiry === 'never' ? {} : { expiresInDays: Number(expiry) }) },
        }),
      ),
    onSuccess: async () => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
    },
  });
  const revoke = async (tokenId: string) => {
    await unwrap(api.DELETE('/me/tokens/{tokenId}', { params: { path: { tokenId } } }));
    await queryClient.invalidateQueries({ queryKey: TOKENS_KEY });
  };
  const errors = fieldErrors(create.error);
  return (
    <section className="card stack" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal access tokens</h2>
      <p>
        A token lets a script or another tool use the management API as you (<code>Authorization: Bearer sp_pat_…</code>
        ). Revoke a token you no longer use.
      </p>
      <SaveForm label="Create a token" request={create} submitLabel="Create token" busyLabel="Creating…">
        <Field
          label="Token name"
          name="tokenName"
          description="What it is for, such as “deploy script”."
          isRequired
          value={name}
          onChange={setName}
          serverError={errors['name']}
        />
        <SelectField label="Expires after" value={expiry} options={EXPIRIES} onChange={setExpiry} />
      </SaveForm>
      {create.data ? (
        <div className="stack">
          <Note>Token “{create.data.tokenInfo.name}” created.</Note>
          <ShownOnce label={`The token “${create.data.tokenInfo.name}”`} value={create.data.token} />
        </div>
      ) : null}
      <QueryView query={tokens} what="tokens">
        {({ tokens: list }) =>
          list.length === 0 ? (
            <Empty>No tokens yet.</Empty>
          ) : (
            <DataTable
              caption="Your tokens, newest first"
              captionClassName="muted"
              columns={['Name', 'Token', 'Created', 'Last used', 'Expires', 'Status', ACTIONS]}
            >
              {list.map((token) => {
                const state = tokenState(token);
                return (
                  <tr key={token.id}>
                    <th scope="row">{token.name}</th>
                    <td>
                      <code>{token.prefix}…</code>
                    </td>
                    <td>{day(token.createdAt)}</td>
                    <td>{token.lastUsedAt ? day(token.lastUsedAt) : 'Never'}</td>
                    <td>{token.expiresAt ? day(token.expiresAt) : 'Never'}</td>
                    <td>
                      <span className={`badge ${state.ok ? 'badge-ok' : 'badge-warn'}`}>{state.label}</span>
                    </td>
                    <td>
                      {token.revokedAt ? null : (
                        <ConfirmButton
                          label={`Revoke ${token.name}`}
                          title={`Revoke the token “${token.name}”?`}
                          confirmLabel="Revoke"
                          variant="danger"
                          onConfirm={() => revoke(token.id)}
                        >
                          Anything that uses it is refused from now on. This cannot be undone.
                        </ConfirmButton>
                      )}
                    </td>
                  </tr>
                );
              })}
            </DataTable>
          )
        }
      </QueryView>
    </section>
  );
}

export default function AccountPage() {
  useTitle('Account');
  return (
    <RequireAccount>
      {(account) => (
        <section className="account" aria-labelledby="account-title">
          <h1 id="account-title">Your account</h1>
          <Profile account={account} />
          <EmailStatus email={account.email} verified={account.verified} />
          <Password account={account} />
          <Tokens />
        </section>
      )}
    </RequireAccount>
  );
}
