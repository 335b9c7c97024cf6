/** The board's pages, one line a resource page module: adding a page is a line here. */
import type { FastifyInstance } from 'fastify';
import { boardFeedRoutes, boardSignInPages } from '../resources/board/mount.ts';
import { boardChangelogPage } from '../resources/changelog/mount.ts';
import {
  boardIdeaPage,
  boardIdeasPage,
  boardRoadmapEmbed,
  boardRoadmapPage,
  boardSubmitPage,
} from '../resources/features/mount.ts';
import { unsubscribeRoutes } from '../resources/notifications/mount.ts';
import type { BoardDeps } from '../routing/board/context.ts';

export const BOARD_ROUTES: ((app: FastifyInstance, deps: BoardDeps) => Promise<void>)[] = [
  boardIdeasPage,
  boardIdeaPage,
  boardSubmitPage,
  boardRoadmapPage,
  boardRoadmapEmbed,
  boardChangelogPage,
  boardSignInPages,
  boardFeedRoutes,
  unsubscribeRoutes,
];
