/** Changes to the selected rows at once (admins): status, internal or public, a tag; all or nothing. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, unwrap } from '../../api/client.ts';
import { type FeatureStatus, featuresKey, STATUSES, statusLabel, type Tag } from '../../api/features.ts';
import { Button, ErrorNote } from '../../ui.tsx';
import { OptionalSelect, SelectField } from '../../widgets/fields.tsx';

type BulkChange = { status?: FeatureStatus; internal?: boolean; addTagIds?: string[]; removeTagIds?: string[] };

export function BulkBar({
  projectId,
  selected,
  tags,
  onStart,
  onDone,
}: {
  projectId: string;
  selected: string[];
  tags: Tag[];
  onStart: () => void;
  onDone: (note: string) => void;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<FeatureStatus>('planned');
  const [tagId, setTagId] = useState('');
  const count = selected.length;
  const ideas = count === 1 ? '1 idea' : `${count} ideas`;
  const tagName = useMemo(() => tags.find((tag) => tag.id === tagId)?.name ?? '', [tags, tagId]);
  const bulk = useMutation({
    mutationFn: (change: BulkChange & { done: string }) => {
      const { done: _done, ...body } = change;
      return unwrap(
        api.POST('/projects/{projectId}/features/bulk', {
          params: { path: { projectId } },
          body: { featureIds: selected, ...body },
        }),
      );
    },
    onSuccess: (_data, change) => onDone(change.done),
    onSettled: () => queryClient.invalidateQueries({ queryKey: featuresKey(projectId) }),
  });
  const run = (change: BulkChange, done: string) => {
    onStart();
    bulk.mutate({ ...change, done });
  };
  return (
    <section className="inbox-bulk card stack" aria-labelledby="bulk-title">
      <h2 id="bulk-title">{ideas} selected</h2>
      <div className="row inbox-bulk-row">
        <SelectField label="New status" value={status} options={STATUSES} onChange={(value) => setStatus(value)} />
        <Button
          variant="primary"
          busy={bulk.isPending}
          onPress={() => run({ status }, `Status set to ${statusLabel(status)} on ${ideas}.`)}
        >
          Set status
        </Button>
      </div>
      <div className="row inbox-bulk-row">
        <Button
          variant="secondary"
          busy={bulk.isPending}
          onPress={() => run({ internal: true }, `${ideas} made internal (hidden from the board and public API).`)}
        >
          Make internal
        </Button>
        <Button
          variant="secondary"
          busy={bulk.isPending}
          onPress={() => run({ internal: false }, `${ideas} made public.`)}
        >
          Make public
        </Button>
      </div>
      {tags.length > 0 ? (
        <div className="row inbox-bulk-row">
          <OptionalSelect
            label="Tag"
            value={tagId}
            empty="Choose a tag"
            options={tags.map((tag) => ({ value: tag.id, label: tag.name }))}
            onChange={setTagId}
          />
          <Button
            variant="secondary"
            busy={bulk.isPending}
            isDisabled={!tagId}
            onPress={() => run({ addTagIds: [tagId] }, `Tag ${tagName} added to ${ideas}.`)}
          >
            Add tag
          </Button>
          <Button
            variant="secondary"
            busy={bulk.isPending}
            isDisabled={!tagId}
            onPress={() => run({ removeTagIds: [tagId] }, `Tag ${tagName} removed from ${ideas}.`)}
          >
            Remove tag
          </Button>
        </div>
      ) : null}
      {bulk.error ? <ErrorNote error={bulk.error} /> : null}
    </section>
  );
}
