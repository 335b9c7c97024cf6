/** An idea's tags: ticked on and off (saved at once), or a new tag created and added in place. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { type ManagedFeature, type Tag, tagsKey } from '../../api/features.ts';
import { Button, ErrorNote, Field, fieldErrors, Note } from '../../ui.tsx';
import { CheckboxField } from '../../widgets/fields.tsx';
import { QueryView } from '../../widgets/states.tsx';
import { useRefresh } from './refresh.ts';
import { setAnd } from '../../widgets/form-request.ts';
import { useApiQuery } from '../../api/use-api-query.ts';
import { TagChips } from '../../widgets/tag-chips.tsx';

export function Tags({ feature, admin }: { feature: ManagedFeature; admin: boolean }) {
  const refresh = useRefresh(feature);
  const queryClient = useQueryClient();
  const tags = useApiQuery(tagsKey(feature.projectId), () =>
    api.GET('/projects/{projectId}/tags', { params: { path: { projectId: feature.projectId } } }),
  );
  const [saved, setSaved] = useState('');
  const [name, setName] = useState('');
  const savedIds = feature.tags.map((tag) => tag.id);
  const savedKey = savedIds.join(',');
  // What the boxes show: the change at once, the saved tags again if the server refuses it.
  const [current, setCurrent] = useState<string[]>(savedIds);
  useEffect(() => setCurrent(savedKey ? savedKey.split(',') : []), [savedKey]);
  const put = (tagIds: string[]) =>
    unwrap(
      api.PUT('/projects/{projectId}/features/{featureId}/tags', {
        params: { path: { projectId: feature.projectId, featureId: feature.id } },
        body: { tagIds },
      }),
    );
  const setTags = useMutation({
    mutationFn: ({ tagIds }: { tagIds: string[]; said: string }) => put(tagIds),
    onSuccess: (_data, { said }) => {
      setSaved(said);
      refresh();
    },
    onError: () => setCurrent(savedKey ? savedKey.split(',') : []),
  });
  const create = useMutation({
    mutationFn: async () => {
      const tag = await unwrap(
        api.POST('/projects/{projectId}/tags', {
          params: { path: { projectId: feature.projectId } },
          body: { name: name.trim() },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: tagsKey(feature.projectId) });
      await put([...current, tag.id]);
      return tag;
    },
    onSuccess: (tag) => {
      setSaved(`Tag ${tag.name} created and added.`);
      setName('');
      refresh();
    },
  });
  const toggle = (tag: Tag, on: boolean) => {
    setSaved('');
    const tagIds = on ? [...current, tag.id] : current.filter((id) => id !== tag.id);
    setCurrent(tagIds);
    setTags.mutate({
      tagIds,
      said: on ? `Tag ${tag.name} added.` : `Tag ${tag.name} removed.`,
    });
  };
  const submitNew = (event: FormEvent) => {
    event.preventDefault();
    setSaved('');
    if (name.trim()) create.mutate();
  };
  return (
    <section className="card stack" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      {!admin ? (
        feature.tags.length === 0 ? (
          <p className="muted">No tags.</p>
        ) : (
          <TagChips tags={feature.tags} />
        )
      ) : (
        <QueryView query={tags} what="tags">
          {(data) => (
            <fieldset className="feature-tags" aria-describedby="tags-help" disabled={setTags.isPending}>
              <legend className="visually-hidden">Tags of this idea</legend>
              {data.tags.length === 0 ? (
                <p id="tags-help" className="muted">
                  The project has no tags yet: create the first one below.
                </p>
              ) : (
                <p id="tags-help" className="muted">
                  Checked tags show on the idea on the board and filter the inbox. A change is saved at once.
                </p>
              )}
              <div className="feature-tag-boxes">
                {data.tags.map((tag) => (
                  <CheckboxField
                    key={tag.id}
                    label={tag.name}
                    checked={current.includes(tag.id)}
                    onChange={(on) => toggle(tag, on)}
                  />
                ))}
              </div>
            </fieldset>
          )}
        </QueryView>
      )}
      {admin ? (
        <form className="row feature-new-tag" onSubmit={submitNew}>
          <Field
            label="New tag"
            value={name}
            onChange={setAnd(setName, create.reset)}
            serverError={fieldErrors(create.error)['name']}
          />
          <Button type="submit" variant="secondary" busy={create.isPending} isDisabled={!name.trim()}>
            Create and add
          </Button>
        </form>
      ) : null}
      {setTags.error ? <ErrorNote error={setTags.error} /> : null}
      {create.error && !fieldErrors(create.error)['name'] ? <ErrorNote error={create.error} /> : null}
      {saved ? <Note>{saved}</Note> : null}
    </section>
  );
}
