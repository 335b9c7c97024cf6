/**
 * The feedback inbox: every feature request and bug of the project (internal and `new` ones too),
 * searched, filtered and sorted through the URL's search parameters (so a view can be shared and
 * the back button returns to the previous one), a page at a time; and changes to the selected rows
 * at once (status, visibility, a tag) for admins, through POST /features/bulk.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import {
  type FeatureSort,
  type FeatureStatus,
  type FeatureType,
  featuresKey,
  type ManagedFeature,
  STATUSES,
  statusLabel,
  type Tag,
  TYPES,
  tagsKey,
  when,
  day,
} from '../api/features.ts';
import { money } from '../api/people.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button, ErrorNote, Note } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { SelectField } from '../widgets/fields.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import './inbox.css';
import { SearchForm } from '../widgets/search-form.tsx';
import { useUrlView } from '../url-view.ts';
import { Pager } from '../widgets/pager.tsx';

const PAGE_SIZE = 25;

const SORTS: readonly { value: FeatureSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'votes', label: 'Most votes' },
  { value: 'value', label: 'Value (revenue of voters’ companies)' },
  { value: 'trending', label: 'Trending (votes this week)' },
  { value: 'updated', label: 'Recently updated' },
  { value: 'comments', label: 'Most comments' },
  { value: 'oldest', label: 'Oldest' },
];

type Visibility = '' | 'internal' | 'public';

/** The view as the URL says it; unknown values fall back to the default. */
function readView(params: URLSearchParams) {
  const pick = <T extends string>(name: string, allowed: readonly T[]): T | '' => {
    const value = params.get(name) ?? '';
    return (allowed as readonly string[]).includes(value) ? (value as T) : '';
  };
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  return {
    q: params.get('q') ?? '',
    status: pick<FeatureStatus>(
      'status',
      STATUSES.map((s) => s.value),
    ),
    type: pick<FeatureType>(
      'type',
      TYPES.map((t) => t.value),
    ),
    visibility: pick<Exclude<Visibility, ''>>('visibility', ['internal', 'public']),
    triage: pick<'needed' | 'done'>('triage', ['needed', 'done']),
    tag: params.get('tag') ?? '',
    sort: pick<FeatureSort>(
      'sort',
      SORTS.map((s) => s.value),
    ),
    page,
  };
}

export default function Inbox() {
  useTitle('Inbox');
  const project = useProject();
  const admin = canAdminister(project);
  const [params, update] = useUrlView();
  const location = useLocation();
  /** Said by the idea's page after deleting it. */
  const arrivalNote = (location.state as { note?: string } | null)?.note;
  const view = readView(params);
  const filtered = Boolean(view.q || view.status || view.type || view.visibility || view.triage || view.tag);

  const tags = useQuery({
    queryKey: tagsKey(project.id),
    queryFn: () => unwrap(api.GET('/projects/{projectId}/tags', { params: { path: { projectId: project.id } } })),
  });

  const query = {
    ...(view.q ? { q: view.q } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(view.type ? { type: view.type } : {}),
    ...(view.visibility ? { internal: view.visibility === 'internal' } : {}),
    ...(view.tag ? { tag: view.tag } : {}),
    ...(view.triage ? { triaged: view.triage === 'done' } : {}),
    sort: view.sort || 'newest',
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  } as const;
  const features = useQuery({
    queryKey: [...featuresKey(project.id), query],
    queryFn: () =>
      unwrap(api.GET('/projects/{projectId}/features', { params: { path: { projectId: project.id }, query } })),
    placeholderData: keepPreviousData,
  });

  // The selection belongs to the rows shown: a new view starts without one.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkNote, setBulkNote] = useState('');
  const viewKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: clearing on a change of view is the point
  useEffect(() => {
    setSelected(new Set());
    setBulkNote('');
  }, [viewKey]);

  const rows = features.data?.features ?? [];
  const total = features.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <div className="inbox stack">
      <h1>Inbox</h1>
      <Filters view={view} tags={tags.data?.tags ?? []} update={update} />
      {admin && selected.size > 0 ? (
        <BulkBar
          projectId={project.id}
          selected={[...selected]}
          tags={tags.data?.tags ?? []}
          onStart={() => setBulkNote('')}
          onDone={(note) => {
            setSelected(new Set());
            setBulkNote(note);
          }}
        />
      ) : null}
      {bulkNote ? <Note>{bulkNote}</Note> : null}
      {arrivalNote && !bulkNote ? <Note>{arrivalNote}</Note> : null}
      {features.isPending ? (
        <Loading what="ideas" />
      ) : features.isError ? (
        <ErrorNote error={features.error} />
      ) : rows.length === 0 ? (
        <Empty>
          {filtered ? (
            <p>
              No ideas match these filters. <Link to={view.sort ? `?sort=${view.sort}` : '?'}>Clear the filters</Link>
            </p>
          ) : (
            <p>
              No ideas yet. They arrive here from the board, the widget, the SDKs and the public API, internal ones
              included.
            </p>
          )}
        </Empty>
      ) : (
        <>
          <p className="muted" role="status">
            {total === 1 ? '1 idea' : `${total} ideas`}
            {pages > 1 ? `, page ${view.page} of ${pages}` : ''}
            {features.isFetching ? ' (updating…)' : ''}
          </p>
          <FeatureTable
            rows={rows}
            admin={admin}
            selected={selected}
            setSelected={setSelected}
            base={`/projects/${project.id}/inbox`}
            search={location.search}
          />
          <Pager
            page={view.page}
            pages={pages}
            onPage={(page) => update({ page: String(page) })}
            className="row inbox-pages"
          />
        </>
      )}
    </div>
  );
}

function Filters({
  view,
  tags,
  update,
}: {
  view: ReturnType<typeof readView>;
  tags: Tag[];
  update: (changes: Record<string, string>) => void;
}) {
  return (
    <search aria-label="Search and filter ideas" className="inbox-filters">
      <SearchForm
        value={view.q}
        onSearch={(q) => update({ q })}
        placeholder="Title, description or notes"
        className="inbox-search row"
      />
      <div className="inbox-selects">
        <SelectField
          label="Status"
          value={view.status}
          options={[{ value: '', label: 'Any status' }, ...STATUSES]}
          onChange={(status) => update({ status })}
        />
        <SelectField
          label="Type"
          value={view.type}
          options={[{ value: '', label: 'Any type' }, ...TYPES]}
          onChange={(type) => update({ type })}
        />
        <SelectField
          label="Visibility"
          value={view.visibility}
          options={[
            { value: '', label: 'Public and internal' },
            { value: 'public', label: 'Public only' },
            { value: 'internal', label: 'Internal only' },
          ]}
          onChange={(visibility) => update({ visibility })}
        />
        <SelectField
          label="Triage"
          value={view.triage}
          options={[
            { value: '', label: 'Triaged or not' },
            { value: 'needed', label: 'Needs triage' },
            { value: 'done', label: 'Triaged' },
          ]}
          onChange={(triage) => update({ triage })}
        />
        <SelectField
          label="Tag"
          value={view.tag}
          options={[{ value: '', label: 'Any tag' }, ...tags.map((tag) => ({ value: tag.id, label: tag.name }))]}
          onChange={(tag) => update({ tag })}
        />
        <SelectField
          label="Sort by"
          value={view.sort || 'newest'}
          options={SORTS}
          onChange={(sort) => update({ sort: sort === 'newest' ? '' : sort })}
        />
      </div>
    </search>
  );
}

function FeatureTable({
  rows,
  admin,
  selected,
  setSelected,
  base,
  search,
}: {
  rows: ManagedFeature[];
  base: string;
  search: string;
  admin: boolean;
  selected: ReadonlySet<string>;
  setSelected: (next: ReadonlySet<string>) => void;
}) {
  const all = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const some = rows.some((row) => selected.has(row.id));
  const allBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = some && !all;
  }, [some, all]);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  return (
    <div className="inbox-table-wrap">
      <table className="table inbox-table" aria-label="Ideas">
        <thead>
          <tr>
            {admin ? (
              <th scope="col" className="inbox-check">
                <input
                  ref={allBox}
                  type="checkbox"
                  aria-label="Select all on this page"
                  checked={all}
                  onChange={(event) =>
                    setSelected(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())
                  }
                />
              </th>
            ) : null}
            <th scope="col">Title</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Votes
            </th>
            <th scope="col" className="num">
              Comments
            </th>
            <th scope="col" className="num">
              <abbr title="Monthly revenue of the voters’ companies">Value</abbr>
            </th>
            <th scope="col">Tags</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} aria-selected={admin ? selected.has(row.id) : undefined}>
              {admin ? (
                <td className="inbox-check">
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.title}`}
                    checked={selected.has(row.id)}
                    onChange={(event) => toggle(row.id, event.target.checked)}
                  />
                </td>
              ) : null}
              <td className="inbox-title">
                <Link to={`${base}/${row.id}`} state={{ inboxSearch: search }}>
                  {row.title}
                </Link>
                {row.internal ? <span className="badge badge-warn inbox-flag">Internal</span> : null}
                {row.triagedAt === null ? <span className="badge badge-muted inbox-flag">Needs triage</span> : null}
                {row.environment === 'test' ? <span className="badge badge-muted inbox-flag">Test key</span> : null}
              </td>
              <td>{row.type === 'bug' ? 'Bug' : 'Feature'}</td>
              <td>
                <span className={`status status-${row.status}`}>{statusLabel(row.status)}</span>
              </td>
              <td className="num">{row.voteCount}</td>
              <td className="num">{row.commentCount}</td>
              <td className="num">{row.value ? money(row.value) : <span className="muted">–</span>}</td>
              <td>
                {row.tags.length === 0 ? (
                  <span className="muted">–</span>
                ) : (
                  <ul className="tag-list" aria-label="Tags">
                    {row.tags.map((tag) => (
                      <li key={tag.id} className="tag-chip">
                        {tag.name}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td>
                <time dateTime={row.updatedAt} title={when(row.updatedAt)}>
                  {day(row.updatedAt)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type BulkChange = { status?: FeatureStatus; internal?: boolean; addTagIds?: string[]; removeTagIds?: string[] };

function BulkBar({
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
          <SelectField
            label="Tag"
            value={tagId}
            options={[{ value: '', label: 'Choose a tag' }, ...tags.map((tag) => ({ value: tag.id, label: tag.name }))]}
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
