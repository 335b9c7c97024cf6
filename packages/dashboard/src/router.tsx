/** The dashboard's routes under /app; every screen is its own chunk, loaded when first visited. */
import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { ProjectLayout } from './project-layout.tsx';
import { Shell } from './shell.tsx';

const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter(
  [
    {
      Component: Shell,
      children: [
        { index: true, lazy: screen(() => import('./screens/home.tsx')) },
        { path: 'sign-in', lazy: screen(() => import('./screens/sign-in.tsx')) },
        { path: 'sign-up', lazy: screen(() => import('./screens/sign-up.tsx')) },
        { path: 'forgot-password', lazy: screen(() => import('./screens/forgot-password.tsx')) },
        { path: 'reset-password', lazy: screen(() => import('./screens/reset-password.tsx')) },
        { path: 'verify-email', lazy: screen(() => import('./screens/verify-email.tsx')) },
        { path: 'account', lazy: screen(() => import('./screens/account.tsx')) },
        { path: 'invites/:token', lazy: screen(() => import('./screens/accept-invite.tsx')) },
        { path: 'teams', lazy: screen(() => import('./screens/teams.tsx')) },
        { path: 'teams/:teamId', lazy: screen(() => import('./screens/team.tsx')) },
        { path: 'projects', lazy: screen(() => import('./screens/projects.tsx')) },
        {
          path: 'projects/:projectId',
          Component: ProjectLayout,
          children: [
            { index: true, lazy: screen(() => import('./screens/inbox/index.tsx')) },
            // One route for the list and the list with an idea open: moving between ideas keeps the list.
            { path: 'inbox/:featureId?', lazy: screen(() => import('./screens/inbox/index.tsx')) },
            { path: 'people', lazy: screen(() => import('./screens/people.tsx')) },
            { path: 'people/:personId', lazy: screen(() => import('./screens/person.tsx')) },
            { path: 'moderation', lazy: screen(() => import('./screens/moderation.tsx')) },
            { path: 'roadmap', lazy: screen(() => import('./screens/roadmap.tsx')) },
            { path: 'changelog', lazy: screen(() => import('./screens/changelog.tsx')) },
            { path: 'changelog/new', lazy: screen(() => import('./screens/changelog-entry.tsx')) },
            { path: 'changelog/:entryId', lazy: screen(() => import('./screens/changelog-entry.tsx')) },
            { path: 'errors', lazy: screen(() => import('./screens/error-groups.tsx')) },
            { path: 'errors/records', lazy: screen(() => import('./screens/errors.tsx')) },
            { path: 'errors/groups/:groupId', lazy: screen(() => import('./screens/error-group-page.tsx')) },
            { path: 'errors/:reportId', lazy: screen(() => import('./screens/error-group.tsx')) },
            { path: 'bugs', lazy: screen(() => import('./screens/bugs.tsx')) },
            { path: 'bugs/:reportId', lazy: screen(() => import('./screens/bug-report.tsx')) },
            { path: 'logs', lazy: screen(() => import('./screens/logs.tsx')) },
            { path: 'logs/lines/:lineId', lazy: screen(() => import('./screens/log-around.tsx')) },
            { path: 'logs/:reportId', lazy: screen(() => import('./screens/log-group.tsx')) },
            { path: 'site-config', lazy: screen(() => import('./screens/site-config.tsx')) },
            { path: 'translations', lazy: screen(() => import('./screens/translations.tsx')) },
            { path: 'releases', lazy: screen(() => import('./screens/releases.tsx')) },
            { path: 'releases/:version', lazy: screen(() => import('./screens/release-health.tsx')) },
            { path: 'settings', lazy: screen(() => import('./screens/project-settings.tsx')) },
            { path: 'keys', lazy: screen(() => import('./screens/project-keys.tsx')) },
            { path: 'webhooks', lazy: screen(() => import('./screens/project-webhooks.tsx')) },
            { path: 'alerts', lazy: screen(() => import('./screens/project-alerts.tsx')) },
            { path: 'audit', lazy: screen(() => import('./screens/audit.tsx')) },
            { path: 'import', lazy: screen(() => import('./screens/imports.tsx')) },
          ],
        },
        { path: '*', lazy: screen(() => import('./screens/not-found.tsx')) },
      ],
    },
  ],
  { basename: '/app' },
);
