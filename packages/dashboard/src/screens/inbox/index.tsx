/**
 * The feedback inbox, a two-pane triage screen (issue 30): the project's ideas and bugs (internal
 * and `new` ones too) on the left, searched, filtered and sorted through the URL's parameters, a
 * page at a time; the selected idea on the right, its id the path's last segment
 * (`/projects/:id/inbox/:featureId`, a deep link that keeps the list's view). A narrow screen shows
 * one pane: the list, or the idea with a way back. Keyboard shortcuts for what repeats
 * (keyboard.ts, `?` lists them); admins change selected rows at once and file ideas for people.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { featuresKey, tagsKey } from '../../api/features.ts';
import { canAdminister, useProject } from '../../project-layout.tsx';
import { Button, Note } from '../../ui.tsx';
import { useTitle } from '../../use-title.ts';
import { useUrlView } from '../../url-view.ts';
import { Pager } from '../../widgets/pager.tsx';
import { ListStates } from '../../widgets/states.tsx';
import { FeatureDetail } from '../feature/index.tsx';
import { BulkBar } from './bulk-bar.tsx';
import { Filters } from './filters.tsx';
import { useInboxKeys } from './keyboard.ts';
import { FeatureList } from './list.tsx';
import { NewIdeaButton } from './new-idea.tsx';
import { ShortcutsDialog } from './shortcuts.tsx';
import { isFiltered, listQuery, PAGE_SIZE, readView } from './view.ts';
import './inbox.css';
import { useApiQuery } from '../../api/use-api-query.ts';
import { toggled } from '../../widgets/select-box.tsx';

export default function Inbox() {
  const project = useProject();
  const admin = canAdminister(project);
  const { featureId } = useParams();
  const openId = featureId || null;
  const [params, update] = useUrlView();
  const location = useLocation();
  const navigate = useNavigate();
  /** Said on arrival: by the idea's page after deleting or merging it, by the new-idea form. */
  const arrivalNote = (location.state as { note?: string } | null)?.note;
  const view = readView(params);
  const filtered = isFiltered(view);
  const base = `/projects/${project.id}/inbox`;
  const search = location.search;
  const [openTitle, setOpenTitle] = useState('');
  useTitle(openId && openTitle ? openTitle : 'Inbox');

  const tags = useApiQuery(tagsKey(project.id), () =>
    api.GET('/projects/{projectId}/tags', { params: { path: { projectId: project.id } } }),
  );
  const query = listQuery(view);
  const features = useApiQuery(
    [...featuresKey(project.id), query],
    () => api.GET('/projects/{projectId}/features', { params: { path: { projectId: project.id }, query } }),
    { placeholderData: keepPreviousData },
  );

  // The bulk selection belongs to the rows shown: a new view starts without one.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkNote, setBulkNote] = useState('');
  const [cursorId, setCursorId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [help, setHelp] = useState(false);
  const viewKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: clearing on a change of view is the point
  useEffect(() => {
    setSelected(new Set());
    setBulkNote('');
  }, [viewKey]);

  const rows = features.data?.features ?? [];
  const total = features.data?.total ?? 0;
  // A search past 1,000 matches counts "more than" (totalCapped, a total of 1,001): "More than
  // 1,000 ideas", and a next page while pages come full.
  const capped = features.data?.totalCapped ?? false;
  const counted = Math.max(1, Math.ceil((capped ? total - 1 : total) / PAGE_SIZE));
  const pages = capped ? Math.max(counted, view.page + (rows.length === PAGE_SIZE ? 1 : 0)) : counted;
  const more = capped ? '+' : '';
  const open = useCallback((id: string) => navigate(`${base}/${id}${window.location.search}`), [navigate, base]);

  useInboxKeys({
    rows,
    cursorId,
    setCursorId,
    openId,
    open,
    admin,
    toggleSelected: (id) => {
      const on = !selected.has(id);
      const next = toggled(selected, id, on);
      setSelected(next);
      const title = rows.find((row) => row.id === id)?.title ?? '';
      setAnnouncement(`${on ? 'Selected' : 'Unselected'} ${title}. ${next.size} selected.`);
    },
    showHelp: () => setHelp(true),
    announce: setAnnouncement,
  });

  const list = (
    <section className="inbox stack inbox-list" aria-labelledby="inbox-title">
      <div className="row inbox-head">
        {openId ? <h2 id="inbox-title">Inbox</h2> : <h1 id="inbox-title">Inbox</h1>}
        <div className="row inbox-actions">
          {admin ? (
            <NewIdeaButton
              projectId={project.id}
              onCreated={(feature, who) =>
                navigate(`${base}/${feature.id}${window.location.search}`, {
                  state: { note: `Filed for ${who}, with their vote.` },
                })
              }
            />
          ) : null}
          <Button variant="quiet" onPress={() => setHelp(true)} aria-keyshortcuts="Shift+?">
            Keyboard shortcuts
          </Button>
        </div>
      </div>
      <Filters
        projectId={project.id}
        compact={openId !== null}
        view={view}
        tags={tags.data?.tags ?? []}
        update={update}
      />
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
      {arrivalNote && !bulkNote && !openId ? <Note>{arrivalNote}</Note> : null}
      <ListStates
        queries={[features]}
        what="ideas"
        isEmpty={rows.length === 0}
        empty={
          filtered ? (
            <p>
              No ideas match these filters. <Link to={view.sort ? `?sort=${view.sort}` : '?'}>Clear the filters</Link>
            </p>
          ) : (
            <p>
              No ideas yet. They arrive here from the board, the widget, the SDKs and the public API, internal ones
              included.
            </p>
          )
        }
      >
        {() => (
          <>
            <p className="muted" role="status">
              {capped ? `More than ${(total - 1).toLocaleString()} ideas` : total === 1 ? '1 idea' : `${total} ideas`}
              {pages > 1 ? `, page ${view.page} of ${capped ? Math.max(counted, view.page) : pages}${more}` : ''}
              {features.isFetching ? ' (updating…)' : ''}
            </p>
            <FeatureList
              rows={rows}
              admin={admin}
              selected={selected}
              setSelected={setSelected}
              base={base}
              search={search}
              openId={openId}
              cursorId={cursorId}
            />
            <Pager
              page={view.page}
              pages={pages}
              onPage={(page) => update({ page: String(page) })}
              className="row inbox-pages"
            />
          </>
        )}
      </ListStates>
    </section>
  );

  return (
    <div className={`inbox-split${openId ? ' inbox-has-open' : ''}`}>
      {list}
      {openId ? (
        <section id="inbox-detail" className="inbox-detail" aria-label="The open idea">
          <FeatureDetail
            key={openId}
            featureId={openId}
            inbox={`${base}${search}`}
            note={arrivalNote}
            onTitle={setOpenTitle}
          />
        </section>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <ShortcutsDialog open={help} onOpenChange={setHelp} />
    </div>
  );
}
