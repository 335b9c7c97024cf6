/** The dashboard's routes under /app; every screen is its own chunk, loaded when first visited. */
import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
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
        { path: 'verify-email', lazy: screen(() => import('./screens/verify-email.tsx')) },
        { path: 'account', lazy: screen(() => import('./screens/account.tsx')) },
        { path: '*', lazy: screen(() => import('./screens/not-found.tsx')) },
      ],
    },
  ],
  { basename: '/app' },
);
