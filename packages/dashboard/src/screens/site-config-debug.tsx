/** The site-config screen's debug-mode tab: one switch every app of the project is told about. */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { ErrorNote } from '../ui.tsx';
import { CheckboxField } from '../widgets/fields.tsx';
import { useRefresh } from './site-config-refresh.ts';

export function DebugSection({
  projectId,
  debugMode,
  admin,
}: {
  projectId: string;
  debugMode: boolean;
  admin: boolean;
}) {
  const refresh = useRefresh(projectId);
  const [on, setOn] = useState(debugMode);
  const save = useMutation({
    mutationFn: (next: boolean) =>
      unwrap(
        api.PATCH('/projects/{projectId}/site-config', { params: { path: { projectId } }, body: { debugMode: next } }),
      ),
    onMutate: (next) => setOn(next),
    onError: () => setOn(debugMode),
    onSuccess: () => refresh(),
  });
  return (
    <>
      <h2>Debug mode</h2>
      <p className="muted">
        Tells every app of this project to turn on its debugging aids (more logging, diagnostics). Each environment also
        has its own debug switch.
      </p>
      {admin ? (
        <CheckboxField label="Debug mode on" checked={on} onChange={save.mutate} />
      ) : (
        <p>
          Debug mode is <strong>{on ? 'on' : 'off'}</strong>.
        </p>
      )}
      {save.error ? <ErrorNote error={save.error} /> : null}
    </>
  );
}
