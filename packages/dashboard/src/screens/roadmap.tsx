/**
 * The roadmap: the project's live ideas in one column per status (the public roadmap's columns,
 * plus New, which the public roadmap leaves out; internal ideas are shown and marked). Admins move
 * a card to another column by dragging it (React Aria's drag and drop: mouse, touch, and keyboard
 * with its drag button, announced to screen readers) or with its "Move to…" menu. A move shows at
 * once and is undone, with the server's reason on the card, when the server refuses it.
 */
import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  Button as AriaButton,
  type DropItem,
  GridList,
  GridListItem,
  isTextDropItem,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  useDragAndDrop,
} from 'react-aria-components';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import { type Feature, type FeatureStatus, ROADMAP_STATUSES, STATUS_LABELS } from '../api/changelog.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { ErrorNote } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { QueryView } from '../widgets/states.tsx';
import './roadmap.css';

type Columns = Record<FeatureStatus, Feature[]>;

/** The drag type of a card: the idea's id. */
const CARD_TYPE = 'application/x-signpost-idea';
/** Cards per column; the busiest columns show their most voted ideas. */
const COLUMN_LIMIT = 200;

const roadmapKey = (projectId: string): QueryKey => ['roadmap', projectId];

async function loadRoadmap(projectId: string): Promise<Columns> {
  const pages = await Promise.all(
    ROADMAP_STATUSES.map((status) =>
      unwrap(
        api.GET('/projects/{projectId}/features', {
          params: {
            path: { projectId },
            query: { status, environment: 'live', sort: 'votes', limit: COLUMN_LIMIT },
          },
        }),
      ),
    ),
  );
  return Object.fromEntries(ROADMAP_STATUSES.map((status, index) => [status, pages[index]?.features ?? []])) as Columns;
}

/** Most votes first, then newest: the public roadmap's order. */
function byVotes(a: Feature, b: Feature): number {
  return b.voteCount - a.voteCount || b.createdAt.localeCompare(a.createdAt);
}

function moved(columns: Columns, feature: Feature, to: FeatureStatus): Columns {
  const next = { ...columns };
  for (const status of ROADMAP_STATUSES) next[status] = next[status].filter((item) => item.id !== feature.id);
  next[to] = [...next[to], { ...feature, status: to }].sort(byVotes);
  return next;
}

export default function Roadmap() {
  useTitle('Roadmap');
  const project = useProject();
  const projectId = project.id;
  const canMove = canAdminister(project);
  const queryClient = useQueryClient();
  const key = roadmapKey(projectId);
  const roadmap = useQuery({ queryKey: key, queryFn: () => loadRoadmap(projectId) });
  const [failures, setFailures] = useState<Record<string, unknown>>({});
  const [announcement, setAnnouncement] = useState('');

  const move = useMutation({
    mutationFn: ({ feature, to }: { feature: Feature; to: FeatureStatus }) =>
      unwrap(
        api.PATCH('/projects/{projectId}/features/{featureId}', {
          params: { path: { projectId, featureId: feature.id } },
          body: { status: to },
        }),
      ),
    onMutate: async ({ feature, to }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Columns>(key);
      if (previous) queryClient.setQueryData<Columns>(key, moved(previous, feature, to));
      setFailures(({ [feature.id]: _, ...rest }) => rest);
      return { previous };
    },
    onSuccess: (_data, { feature, to }) => setAnnouncement(`Moved “${feature.title}” to ${STATUS_LABELS[to]}.`),
    onError: (error, { feature }, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
      setFailures((current) => ({ ...current, [feature.id]: error }));
      setAnnouncement(`“${feature.title}” was not moved.`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });

  const request = (feature: Feature, to: FeatureStatus) => {
    if (feature.status !== to) move.mutate({ feature, to });
  };

  return (
    <div className="stack roadmap-screen">
      <h1>Roadmap</h1>
      <p className="muted">
        Live ideas by status, most voted first. The public roadmap shows the columns from Open on, without internal
        ideas.
        {canMove
          ? ' Drag a card to another column (with the keyboard: its drag button, Enter, Tab to a column, Enter), or use its “Move to…” menu.'
          : ' Admins and owners move cards.'}
      </p>
      <QueryView query={roadmap} what="the roadmap">
        {(columns) => (
          <div className="roadmap">
            {ROADMAP_STATUSES.map((status) => (
              <RoadmapColumn
                key={status}
                projectId={projectId}
                status={status}
                items={columns[status]}
                columns={columns}
                canMove={canMove}
                failures={failures}
                onMove={request}
              />
            ))}
          </div>
        )}
      </QueryView>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </div>
  );
}

/** Where a drag began, so a column does not accept its own cards. */
const dragSource: { current: FeatureStatus | null } = { current: null };

function RoadmapColumn({
  projectId,
  status,
  items,
  columns,
  canMove,
  failures,
  onMove,
}: {
  projectId: string;
  status: FeatureStatus;
  items: Feature[];
  columns: Columns;
  canMove: boolean;
  failures: Record<string, unknown>;
  onMove: (feature: Feature, to: FeatureStatus) => void;
}) {
  const headingId = `column-${status}`;
  const columnsRef = useRef(columns);
  columnsRef.current = columns;
  const find = (id: string) => {
    for (const list of Object.values(columnsRef.current)) {
      const found = list.find((feature) => feature.id === id);
      if (found) return found;
    }
    return undefined;
  };
  const drop = async (dropped: DropItem[]) => {
    for (const item of dropped) {
      if (!isTextDropItem(item) || !item.types.has(CARD_TYPE)) continue;
      const feature = find(await item.getText(CARD_TYPE));
      if (feature) onMove(feature, status);
    }
  };
  const { dragAndDropHooks } = useDragAndDrop({
    isDisabled: !canMove,
    getItems: (keys) =>
      [...keys].map((id) => ({ [CARD_TYPE]: String(id), 'text/plain': find(String(id))?.title ?? String(id) })),
    acceptedDragTypes: [CARD_TYPE],
    getDropOperation: () => (dragSource.current === status ? 'cancel' : 'move'),
    onDragStart: () => {
      dragSource.current = status;
    },
    onDragEnd: () => {
      dragSource.current = null;
    },
    onRootDrop: (event) => drop(event.items),
    onInsert: (event) => drop(event.items),
    onItemDrop: (event) => drop(event.items),
  });
  return (
    <section className="roadmap-column" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {STATUS_LABELS[status]} <span className="muted">({items.length})</span>
      </h2>
      {status === 'new' ? <p className="column-note">Not on the public roadmap</p> : null}
      <GridList
        // A label of its own (not the heading's id): drop targets are announced as "Drop on <label>".
        aria-label={STATUS_LABELS[status]}
        className="roadmap-cards"
        items={items}
        // Cards re-render when a move fails (the collection caches rows by item otherwise).
        dependencies={[failures]}
        dragAndDropHooks={canMove ? dragAndDropHooks : undefined}
        renderEmptyState={() => <p className="column-empty">No ideas</p>}
      >
        {(feature) => (
          <GridListItem id={feature.id} textValue={feature.title} className="roadmap-card">
            <Card
              projectId={projectId}
              feature={feature}
              canMove={canMove}
              failure={failures[feature.id]}
              onMove={(to) => onMove(feature, to)}
            />
          </GridListItem>
        )}
      </GridList>
    </section>
  );
}

function Card({
  projectId,
  feature,
  canMove,
  failure,
  onMove,
}: {
  projectId: string;
  feature: Feature;
  canMove: boolean;
  failure: unknown;
  onMove: (to: FeatureStatus) => void;
}) {
  const votes = `${feature.voteCount} ${feature.voteCount === 1 ? 'vote' : 'votes'}`;
  return (
    <div className="card-body">
      <div className="card-top">
        {canMove ? (
          <AriaButton slot="drag" className="drag-handle" aria-label={`Drag “${feature.title}”`}>
            <span aria-hidden="true">⠿</span>
          </AriaButton>
        ) : null}
        <Link className="card-title" to={`/projects/${projectId}/inbox/${feature.id}`}>
          {feature.title}
        </Link>
      </div>
      <div className="card-meta">
        <span>{votes}</span>
        <span className={`tag tag-${feature.type}`}>{feature.type === 'bug' ? 'Bug' : 'Feature'}</span>
        {feature.internal ? <span className="tag tag-internal">Internal</span> : null}
      </div>
      {canMove ? (
        <MenuTrigger>
          <AriaButton className="button button-quiet move-button">
            <span>
              Move <span className="visually-hidden">“{feature.title}” </span>to…
            </span>
          </AriaButton>
          <Popover className="menu-popover" placement="bottom start">
            <Menu
              className="menu"
              aria-label={`Move “${feature.title}” to`}
              onAction={(status) => onMove(status as FeatureStatus)}
              disabledKeys={[feature.status]}
            >
              {ROADMAP_STATUSES.map((status) => (
                <MenuItem key={status} id={status} className="menu-item">
                  {STATUS_LABELS[status]}
                  {status === feature.status ? ' (now)' : ''}
                </MenuItem>
              ))}
            </Menu>
          </Popover>
        </MenuTrigger>
      ) : null}
      {failure ? <ErrorNote error={failure} /> : null}
    </div>
  );
}
