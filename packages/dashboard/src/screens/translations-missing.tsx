/** The translations screen's inbox of keys apps reported missing at runtime, which admins can add as keys. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client.ts';
import { type MissingEntry, translationsKey } from '../api/translations.ts';
import { Button, ErrorNote, Note } from '../ui.tsx';
import { ListStates } from '../widgets/states.tsx';
import { DataTable } from '../widgets/data-table.tsx';
import { useApiQuery } from '../api/use-api-query.ts';
import { SelectBox, toggled } from '../widgets/select-box.tsx';

interface MissingKey {
  key: string;
  exists: boolean;
  occurrences: number;
  lastSeenAt: string;
  locales: MissingEntry[];
}

function byKey(entries: MissingEntry[]): MissingKey[] {
  const keys = new Map<string, MissingKey>();
  for (const entry of entries) {
    let item = keys.get(entry.key);
    if (!item) {
      item = { key: entry.key, exists: entry.keyExists, occurrences: 0, lastSeenAt: entry.lastSeenAt, locales: [] };
      keys.set(entry.key, item);
    }
    item.occurrences += entry.occurrences;
    if (entry.lastSeenAt > item.lastSeenAt) item.lastSeenAt = entry.lastSeenAt;
    item.locales.push(entry);
  }
  return [...keys.values()];
}

export function MissingInbox({ projectId, admin }: { projectId: string; admin: boolean }) {
  const queryClient = useQueryClient();
  const missing = useApiQuery([...translationsKey(projectId), 'missing'], () =>
    api.GET('/projects/{projectId}/translations/missing', {
      params: { path: { projectId }, query: { limit: 500 } },
    }),
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [note, setNote] = useState('');
  const add = useMutation({
    mutationFn: (keys: string[]) =>
      unwrap(
        api.POST('/projects/{projectId}/translations/missing/keys', {
          params: { path: { projectId } },
          body: { keys },
        }),
      ),
    onSuccess: (result) => {
      setSelected(new Set());
      const parts = [
        result.created.length > 0
          ? `Added ${result.created.length === 1 ? '1 key' : `${result.created.length} keys`}: ${result.created.join(', ')}.`
          : '',
        result.existing.length > 0 ? `Already keys: ${result.existing.join(', ')}.` : '',
        result.invalid.length > 0
          ? `Not valid key names (letters, digits, . _ - only): ${result.invalid.join(', ')}.`
          : '',
      ];
      setNote(parts.filter(Boolean).join(' '));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: translationsKey(projectId) }),
  });
  const items = byKey(missing.data?.missing ?? []);
  const shown = missing.data?.missing.length ?? 0;
  const reported = missing.data?.total ?? 0;
  const addable = items.filter((item) => !item.exists);
  return (
    <section className="card stack" aria-labelledby="missing-title">
      <h2 id="missing-title">Missing keys reported by apps</h2>
      <p className="muted">
        Keys the SDKs asked for at runtime and found no text for, per locale, most reported first.
      </p>
      {note ? <Note>{note}</Note> : null}
      <ListStates
        queries={[missing]}
        what="missing keys"
        isEmpty={items.length === 0}
        empty={<p>No missing keys reported. Apps report them through the public API (POST /i18n-telemetry).</p>}
      >
        {() => (
          <>
            <DataTable
              className="translations-missing"
              caption="Missing keys"
              columns={[
                admin && { label: 'Select', hidden: true },
                'Key',
                'Locales (reports)',
                { label: 'Reports', className: 'num' },
                'Last reported',
                'State',
              ]}
            >
              {items.map((item) => (
                <tr key={item.key}>
                  {admin ? (
                    <td>
                      {item.exists ? null : (
                        <SelectBox
                          name={item.key}
                          checked={selected.has(item.key)}
                          onChange={(on) => setSelected(toggled(selected, item.key, on))}
                        />
                      )}
                    </td>
                  ) : null}
                  <th scope="row">
                    <code>{item.key}</code>
                  </th>
                  <td>{item.locales.map((entry) => `${entry.locale} (${entry.occurrences})`).join(', ')}</td>
                  <td className="num">{item.occurrences}</td>
                  <td>
                    <time dateTime={item.lastSeenAt}>{new Date(item.lastSeenAt).toLocaleString()}</time>
                  </td>
                  <td>{item.exists ? 'Is a key; text missing' : 'Not a key yet'}</td>
                </tr>
              ))}
            </DataTable>
            {reported > shown ? (
              <p className="muted">
                Showing the {shown} most reported of {reported} reports by key and locale.
              </p>
            ) : null}
            {admin && addable.length > 0 ? (
              <div className="row">
                <Button
                  isDisabled={selected.size === 0}
                  busy={add.isPending}
                  onPress={() => {
                    setNote('');
                    add.mutate([...selected]);
                  }}
                >
                  {selected.size === 0
                    ? 'Add as keys'
                    : `Add ${selected.size === 1 ? '1 key' : `${selected.size} keys`} as keys`}
                </Button>
                <Button
                  variant="secondary"
                  busy={add.isPending}
                  onPress={() => {
                    setNote('');
                    add.mutate(addable.map((item) => item.key));
                  }}
                >
                  Add every new one ({addable.length})
                </Button>
              </div>
            ) : null}
            {add.error ? <ErrorNote error={add.error} /> : null}
          </>
        )}
      </ListStates>
    </section>
  );
}
