/**
 * A project's export (issue 36), on its settings page for admins: the project's data as one zip
 * (JSON lines per table and a manifest), as the server streams it; secrets are never in it.
 */
import { useState } from 'react';
import { api, type Project } from '../api/client.ts';
import { Button, ErrorNote } from '../ui.tsx';

/** The file name the server gave (`content-disposition`), else one made here. */
function fileName(response: Response, project: Project): string {
  const given = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return given ?? `${project.slug}-export.zip`;
}

export function ProjectExport({ project }: { project: Project }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const {
        data,
        error: failure,
        response,
      } = await api.POST('/projects/{projectId}/export', {
        params: { path: { projectId: project.id } },
        parseAs: 'blob',
      });
      if (failure || !data) throw failure ?? new Error('The export failed.');
      const name = fileName(response, project);
      const url = URL.createObjectURL(data as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      // After the browser took the file: revoking at once may cancel the download in some browsers.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDone(name);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card stack" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p className="muted">
        Everything this project holds, as one zip of JSON lines per table with a manifest. Keys, passwords and sessions
        are not in it; restoring it into a new server gives new keys.
      </p>
      <div className="row">
        <Button variant="secondary" onPress={download} busy={busy}>
          {busy ? 'Exporting…' : 'Download export (zip)'}
        </Button>
        {done ? <span role="status">Downloaded {done}.</span> : null}
      </div>
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}
