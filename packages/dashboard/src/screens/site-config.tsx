/**
 * A project's site configuration, what its apps are told: maintenance, status messages, feature
 * flags, environments and debug mode, one tab each; beside them, exactly what the public
 * GET /site-config answers now, with its lastUpdated and ETag, refreshed after every save.
 * Admins and owners change it; members see it read-only (the server lets admins write).
 */
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { fetchPublicAnswer, type PublicAnswer, previewKey, siteConfigKey } from '../api/site-config.ts';
import { api } from '../api/client.ts';
import { canAdminister, useProject } from '../project-layout.tsx';
import { Button } from '../ui.tsx';
import { useTitle } from '../use-title.ts';
import { QueryView } from '../widgets/states.tsx';
import { DebugSection, FlagsSection, MaintenanceSection } from './site-config-sections.tsx';
import { EnvironmentsSection, MessagesSection } from './site-config-lists.tsx';
import './site-config.css';
import { useApiQuery } from '../api/use-api-query.ts';

type SectionId = 'maintenance' | 'messages' | 'flags' | 'environments' | 'debug';

/** The sections' tabs, in their order. */
const SECTION_LABELS: Record<SectionId, string> = {
  maintenance: 'Maintenance',
  messages: 'Messages',
  flags: 'Feature flags',
  environments: 'Environments',
  debug: 'Debug mode',
};
const SECTIONS = Object.keys(SECTION_LABELS) as SectionId[];

export default function SiteConfig() {
  const project = useProject();
  useTitle(`Site config · ${project.name}`);
  const admin = canAdminister(project);
  const config = useApiQuery(siteConfigKey(project.id), () =>
    api.GET('/projects/{projectId}/site-config', { params: { path: { projectId: project.id } } }),
  );
  return (
    <section className="stack" aria-labelledby="site-config-title">
      <h1 id="site-config-title">Site configuration</h1>
      <p className="muted">
        What your apps read from <span className="code">GET /site-config</span>: maintenance, messages, feature flags,
        environments and debug mode. Every save changes its <span className="code">lastUpdated</span> and ETag.
      </p>
      {admin ? null : <p className="muted">You are a member of this project’s team: admins and owners change these.</p>}
      <div className="site-config">
        <PublicAnswerPanel projectId={project.id} />
        <QueryView query={config} what="the site configuration">
          {(data) => {
            const panels: Record<SectionId, ReactNode> = {
              maintenance: <MaintenanceSection projectId={project.id} maintenance={data.maintenance} admin={admin} />,
              messages: <MessagesSection projectId={project.id} messages={data.messages} admin={admin} />,
              flags: <FlagsSection projectId={project.id} flags={data.featureFlags} admin={admin} />,
              environments: (
                <EnvironmentsSection projectId={project.id} environments={data.environments} admin={admin} />
              ),
              debug: <DebugSection projectId={project.id} debugMode={data.debugMode} admin={admin} />,
            };
            return (
              <Tabs className="site-config-tabs">
                <TabList aria-label="Site configuration sections" className="tab-list">
                  {SECTIONS.map((id) => (
                    <Tab key={id} id={id} className="tab">
                      {SECTION_LABELS[id]}
                      {id === 'maintenance' && data.maintenance.enabled ? ' (on)' : ''}
                    </Tab>
                  ))}
                </TabList>
                {SECTIONS.map((id) => (
                  <TabPanel key={id} id={id} className="tab-panel card stack">
                    {panels[id]}
                  </TabPanel>
                ))}
              </Tabs>
            );
          }}
        </QueryView>
      </div>
    </section>
  );
}

/** The public answer as apps get it; the previous ETag stays in view after a change. */
function PublicAnswerPanel({ projectId }: { projectId: string }) {
  const answer = useQuery({ queryKey: previewKey(projectId), queryFn: () => fetchPublicAnswer(projectId) });
  const [previous, setPrevious] = useState<PublicAnswer | null>(null);
  const last = useRef<PublicAnswer | null>(null);
  useEffect(() => {
    if (!answer.data) return;
    if (last.current && last.current.etag !== answer.data.etag) setPrevious(last.current);
    last.current = answer.data;
  }, [answer.data]);
  const url = `${window.location.origin}/api/public/v1/site-config?projectId=${encodeURIComponent(projectId)}`;
  return (
    <section className="card stack public-answer" aria-labelledby="public-answer-title">
      <h2 id="public-answer-title">What apps receive now</h2>
      <p className="muted">
        <span className="code public-url">GET {url}</span>
        <br />
        The same answer for keyless calls and for live and test keys: the configuration is shared.
      </p>
      <QueryView query={answer} what="the public answer">
        {(data) => (
          <>
            <dl className="facts" aria-label="Public answer">
              <dt>lastUpdated</dt>
              <dd className="code" data-testid="last-updated">
                {data.lastUpdated}
              </dd>
              <dt>ETag</dt>
              <dd className="code" data-testid="etag">
                {data.etag}
              </dd>
              {previous ? (
                <>
                  <dt>Previous ETag</dt>
                  <dd className="code muted">{previous.etag}</dd>
                </>
              ) : null}
            </dl>
            <p className="muted" role="status">
              {previous ? 'Changed by the last save: apps holding the previous ETag get the new answer.' : null}
            </p>
            <details className="public-body">
              <summary>The response body</summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to be read by keyboard */}
              <section className="public-json" tabIndex={0} aria-label="Response body">
                <pre>{JSON.stringify(JSON.parse(data.text), null, 2)}</pre>
              </section>
            </details>
          </>
        )}
      </QueryView>
      <div>
        <Button variant="secondary" onPress={() => void answer.refetch()} busy={answer.isFetching}>
          {answer.isFetching ? 'Refreshing…' : 'Refresh'}
        </Button>
      </div>
    </section>
  );
}
