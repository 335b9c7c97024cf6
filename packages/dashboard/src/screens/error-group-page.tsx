/**
 * One error group (issue 31): its facts (environment, releases, events, users), lifecycle (admins),
 * chart, tag facets, the groups merged into it, and an event browser — older and newer, "event 2
 * of 10" — showing each event's exceptions (stack with in-app frames highlighted and context
 * lines, an "Unhandled" badge), contexts, user, request, tags and breadcrumbs.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client.ts';
import {
  type ErrorEventDetail,
  type ErrorGroupDetail,
  errorGroupsKey,
  errorsKey,
  statusName,
  when,
} from '../api/reports.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button } from '../ui.tsx';
import { useKeyShortcuts } from '../use-key-shortcuts.ts';
import { useTitle } from '../use-title.ts';
import { Fact } from '../widgets/report-summary.tsx';
import { ErrorGroupLinks } from '../widgets/release-hub.tsx';
import { QueryView } from '../widgets/states.tsx';
import { resolveInNextRelease, TriageStatus } from '../widgets/triage.tsx';
import { Breadcrumbs, Context, type Crumb, History } from './error-group.tsx';
import { EventView } from './error-event.tsx';
import { EventFlags, SuspectFlags } from './error-flags.tsx';
import './reports.css';
import './error-groups.css';
import { ReportPage } from '../widgets/report-page.tsx';
import { useApiQuery } from '../api/use-api-query.ts';

export default function ErrorGroupPage() {
  const project = useProject();
  const { groupId = '' } = useParams();
  const group = useApiQuery([...errorGroupsKey(project.id), 'one', groupId], () =>
    api.GET('/projects/{projectId}/error-groups/{groupId}', {
      params: { path: { projectId: project.id, groupId } },
    }),
  );
  useTitle(group.data ? `Error: ${group.data.title}` : 'Error');
  return (
    <ReportPage back={`/projects/${project.id}/errors`} backLabel="All errors" query={group} what="the error group">
      {(data) => <GroupView group={data} admin={canAdminister(project)} />}
    </ReportPage>
  );
}

function GroupView({ group, admin }: { group: ErrorGroupDetail; admin: boolean }) {
  return (
    <>
      <header className="report-header">
        <h1>{group.title}</h1>
        <span className={`report-status report-status-${group.status}`}>{statusName(group.status)}</span>
        {group.unhandled ? <span className="badge-unhandled">Unhandled</span> : null}
      </header>
      {group.mergedInto ? (
        <p className="notice">
          Merged into <Link to={`../errors/groups/${group.mergedInto}`}>another group</Link>.
        </p>
      ) : null}
      {/* Two panes from 1200 px, as Sentry's issue page: the facts and the events, which people read,
          beside what they act on and scan (status; tags, flags, feedback, links). Each row is its
          own grid with the same columns, so in one column the status still follows the facts. */}
      <div className="group-row">
        <section className="card stack" aria-labelledby="facts-title">
          <h2 id="facts-title">Summary</h2>
          <dl className="report-facts">
            <Fact name="Where" value={group.culprit} />
            <Fact name="Environment" value={`${group.sdkEnvironment} (${group.environment} key)`} />
            <Fact name="Events" value={String(group.events)} />
            <Fact name="Users" value={String(group.users)} />
            <Fact name="First seen" value={when(group.firstSeenAt)} />
            <Fact name="Last seen" value={when(group.lastSeenAt)} />
            <Fact name="New in release" value={group.firstRelease} />
            <Fact name="Last release" value={group.lastRelease} />
            {group.regressedInRelease ? <Fact name="Regressed in" value={group.regressedInRelease} /> : null}
            {group.resolvedInRelease ? <Fact name="Resolved after release" value={group.resolvedInRelease} /> : null}
          </dl>
        </section>
        {admin && !group.mergedInto ? <Lifecycle group={group} /> : null}
      </div>
      <div className="group-row">
        <div className="group-main stack">
          <History groupId={group.id} refresh={group.events} />
          <Events group={group} />
        </div>
        <div className="group-side stack">
          <section className="card stack" aria-labelledby="tags-title">
            <h2 id="tags-title">Tags</h2>
            {group.tags.length === 0 ? (
              <p className="muted">No tags on this group's events.</p>
            ) : (
              <div className="facets">
                {group.tags.map((tag) => (
                  <div key={tag.key}>
                    <h3>{tag.key}</h3>
                    <ul aria-label={`Values of ${tag.key}`}>
                      {tag.values.map((value) => (
                        <li key={value.value}>
                          {value.value}: {Math.round(value.share * 100)}% ({value.count})
                          <span className="facet-bar" style={{ width: `${Math.max(2, value.share * 100)}%` }} />
                        </li>
                      ))}
                    </ul>
                  </div>
                ))}
              </div>
            )}
          </section>
          <SuspectFlags group={group} />
          <Feedback group={group} />
          <ErrorGroupLinks groupId={group.id} admin={admin} />
          {group.merged.length > 0 ? <Merged group={group} admin={admin} /> : null}
        </div>
      </div>
    </>
  );
}

/** User feedback on the group's events (Sentry's feedback widget, captureFeedback, user_report). */
function Feedback({ group }: { group: ErrorGroupDetail }) {
  const project = useProject();
  const feedback = useApiQuery([...errorGroupsKey(project.id), 'feedback', group.id], () =>
    api.GET('/projects/{projectId}/error-groups/{groupId}/feedback', {
      params: { path: { projectId: project.id, groupId: group.id } },
    }),
  );
  return (
    <section className="card stack" aria-labelledby="feedback-title">
      <h2 id="feedback-title">User feedback</h2>
      <QueryView query={feedback} what="the feedback">
        {(data) =>
          data.feedback.length === 0 ? (
            <p className="muted">No user feedback on this group's events.</p>
          ) : (
            <ul className="feedback-list">
              {data.feedback.map((item) => (
                <li key={item.id} className="stack">
                  <p className="feedback-message">{item.message}</p>
                  <p className="muted">
                    {item.name ?? 'Someone'}
                    {item.email ? ` <${item.email}>` : ''} · {when(item.createdAt)}
                    {item.url ? (
                      <>
                        {' '}
                        · on <span className="feedback-url">{item.url}</span>
                      </>
                    ) : null}{' '}
                    · <Link to={`/projects/${project.id}/bugs/${item.id}`}>bug report</Link>
                  </p>
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

function Lifecycle({ group }: { group: ErrorGroupDetail }) {
  const project = useProject();
  const queryClient = useQueryClient();
  return (
    <TriageStatus
      status={group.status}
      send={(status, options) =>
        unwrap(
          api.PATCH('/projects/{projectId}/error-groups/{groupId}', {
            params: { path: { projectId: project.id, groupId: group.id } },
            body: { status, ...options },
          }),
        )
      }
      onSettled={() => {
        void queryClient.invalidateQueries({ queryKey: errorGroupsKey(project.id) });
        void queryClient.invalidateQueries({ queryKey: errorsKey(project.id) });
      }}
      done={{
        resolved: 'Resolved. If it occurs again it shows as regressed.',
        ignored: 'Ignored. New events are still counted.',
        open: 'Reopened.',
      }}
      extra={resolveInNextRelease({
        status: group.status,
        release: group.lastRelease,
        resolvedInRelease: group.resolvedInRelease,
        what: 'Events',
      })}
    />
  );
}

function Merged({ group, admin }: { group: ErrorGroupDetail; admin: boolean }) {
  const project = useProject();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const unmerge = async (id: string) => {
    setBusy(id);
    try {
      await unwrap(
        api.POST('/projects/{projectId}/error-groups/{groupId}/unmerge', {
          params: { path: { projectId: project.id, groupId: id } },
        }),
      );
      await queryClient.invalidateQueries({ queryKey: errorGroupsKey(project.id) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="card stack" aria-labelledby="merged-title">
      <h2 id="merged-title">Merged into this group</h2>
      <ul>
        {group.merged.map((child) => (
          <li key={child.id} className="row">
            <span>
              {child.title} — {child.events} events
            </span>
            {admin ? (
              <Button variant="secondary" busy={busy === child.id} onPress={() => void unmerge(child.id)}>
                Unmerge
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The event browser: the latest event first, then older and newer ones. */
function Events({ group }: { group: ErrorGroupDetail }) {
  const project = useProject();
  const [eventId, setEventId] = useState('latest');
  const event = useApiQuery(
    [...errorGroupsKey(project.id), 'event', group.id, eventId, group.events],
    () =>
      api.GET('/projects/{projectId}/error-groups/{groupId}/events/{eventId}', {
        params: { path: { projectId: project.id, groupId: group.id, eventId } },
      }),
    { retry: false },
  );
  if (group.keptEvents === 0) {
    return (
      <section className="card stack" aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <p className="muted">No events are kept for this group (it was recorded before events were kept).</p>
      </section>
    );
  }
  return (
    <section className="card stack" aria-labelledby="events-title">
      <div className="event-nav">
        <h2 id="events-title">Events</h2>
        {event.data ? <EventNav event={event.data} go={setEventId} /> : null}
      </div>
      <QueryView query={event} what="the event">
        {(data) => <EventDetail detail={data} />}
      </QueryView>
    </section>
  );
}

/** Older and newer events, also on j and k (what browsing a group's events repeats). */
function EventNav({ event, go }: { event: ErrorEventDetail; go: (id: string) => void }) {
  const older = () => event.older && go(event.older);
  const newer = () => event.newer && go(event.newer);
  useKeyShortcuts({ j: older, k: newer });
  // react-aria's Button passes no aria-keyshortcuts through; a description reaches the same people.
  const keysId = useId();
  return (
    <>
      <span role="status">
        Event {event.position} of {event.kept}
      </span>
      <span id={keysId} hidden>
        Keyboard: j for older, k for newer
      </span>
      <Button variant="secondary" isDisabled={!event.older} onPress={older} aria-describedby={keysId}>
        Older
        <span className="shortcut-key" aria-hidden="true">
          j
        </span>
      </Button>
      <Button variant="secondary" isDisabled={!event.newer} onPress={newer} aria-describedby={keysId}>
        Newer
        <span className="shortcut-key" aria-hidden="true">
          k
        </span>
      </Button>
    </>
  );
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

/** Sentry's breadcrumbs (seconds since the epoch) in the shape the timeline reads. */
function crumbsOf(event: Json): Crumb[] {
  const raw = object(event['breadcrumbs'])?.['values'] ?? event['breadcrumbs'];
  if (!Array.isArray(raw)) return [];
  return raw.map((value) => {
    const crumb = object(value) ?? {};
    const at = crumb['timestamp'];
    return {
      ...crumb,
      timestamp: typeof at === 'number' ? new Date(at * 1000).toISOString() : at,
      type: crumb['type'] ?? 'default',
    };
  });
}

function EventDetail({ detail }: { detail: ErrorEventDetail }) {
  const event = detail.event as Json;
  const contexts = object(event['contexts']) ?? {};
  return (
    <div className="stack">
      <dl className="report-facts">
        <Fact name="Event id" value={detail.eventId} />
        <Fact name="Received" value={when(detail.receivedAt)} />
        <Fact name="Release" value={detail.release} />
        <Fact name="Environment" value={detail.sdkEnvironment} />
        <Fact name="Handled" value={detail.handled === null ? null : detail.handled ? 'yes' : 'no'} />
      </dl>
      <EventView event={event} />
      <EventFlags flags={detail.flags} />
      <h3>Breadcrumbs</h3>
      <Breadcrumbs crumbs={crumbsOf(event)} />
      <h3>Contexts</h3>
      <div className="report-context">
        {Object.keys(contexts).length === 0 ? <p className="muted">None sent.</p> : null}
        {Object.entries(contexts).map(([name, value]) => (
          <Context key={name} title={name} data={object(value) ?? { value }} />
        ))}
        <Context title="User" data={object(event['user']) ?? null} />
        <Context title="Request" data={object(event['request']) ?? null} />
        <Context title="Tags" data={object(event['tags']) ?? null} />
      </div>
    </div>
  );
}
