/**
 * The status section of a grouped report's page (an error group, a bug report, a log group):
 * Resolve, Ignore and Reopen as the current status allows, the server's refusal in words, and
 * what the change means once done. Each page says how to send the change and what each status
 * means for its kind; errors add "Resolve in next release" through `extra`.
 */
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Button, ErrorNote, Note } from '../ui.tsx';
import './triage.css';

export type SettableStatus = 'open' | 'resolved' | 'ignored';

/** One change: the status, any options of the kind (errors: inNextRelease), the note once done. */
export interface StatusChange {
  status: SettableStatus;
  options?: Record<string, unknown>;
  done: string;
}

export function TriageStatus({
  status,
  send,
  onSettled,
  done,
  extra,
  footer,
}: {
  /** The current status (errors also know 'regressed', which offers Resolve, Ignore and Reopen). */
  status: string;
  send: (status: SettableStatus, options: Record<string, unknown>) => Promise<unknown>;
  onSettled: () => unknown;
  /** The note after each plain change. */
  done: Record<SettableStatus, string>;
  /** More actions, given the function that makes a change. */
  extra?: (change: (change: StatusChange) => void, busy: boolean) => ReactNode;
  footer?: ReactNode;
}) {
  const [note, setNote] = useState('');
  const mutation = useMutation({
    mutationFn: ({ status: next, options = {} }: StatusChange) => send(next, options),
    onMutate: () => setNote(''),
    onSuccess: (_data, change) => setNote(change.done),
    onSettled,
  });
  const busy = mutation.isPending;
  const change = (next: StatusChange) => mutation.mutate(next);
  const plain = (next: SettableStatus) => change({ status: next, done: done[next] });
  return (
    <section className="card stack" aria-labelledby="triage-status-title">
      <h2 id="triage-status-title">Status</h2>
      <div className="report-actions">
        {status !== 'resolved' ? (
          <Button variant="primary" busy={busy} onPress={() => plain('resolved')}>
            Resolve
          </Button>
        ) : null}
        {extra?.(change, busy)}
        {status !== 'ignored' ? (
          <Button variant="secondary" busy={busy} onPress={() => plain('ignored')}>
            Ignore
          </Button>
        ) : null}
        {status !== 'open' ? (
          <Button variant="secondary" busy={busy} onPress={() => plain('open')}>
            Reopen
          </Button>
        ) : null}
      </div>
      {footer}
      {mutation.error ? <ErrorNote error={mutation.error} /> : null}
      {note ? <Note>{note}</Note> : null}
    </section>
  );
}

/**
 * Errors' "Resolve in next release" (the `extra` of TriageStatus): resolved now, and regressed only
 * by what comes from a release newer than `release`, the latest one seen; offered until it is so
 * resolved, and only once a release is known. `what`: the kind's items, as the note names them.
 */
export function resolveInNextRelease({
  status,
  release,
  resolvedInRelease,
  what,
}: {
  status: string;
  release: string | null | undefined;
  resolvedInRelease: string | null | undefined;
  what: 'Events' | 'Reports';
}) {
  return (change: (change: StatusChange) => void, busy: boolean): ReactNode =>
    status !== 'resolved' || !resolvedInRelease ? (
      <Button
        variant="secondary"
        busy={busy}
        isDisabled={!release}
        onPress={() =>
          change({
            status: 'resolved',
            options: { inNextRelease: true },
            done: `Resolved in the release after ${release}. ${what} from a newer release show it as regressed.`,
          })
        }
      >
        Resolve in next release
      </Button>
    ) : null;
}
