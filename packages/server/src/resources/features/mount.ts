/** What the surfaces mount: the features resource's routes and tools (imported by surfaces only). */
export { featurePublicRoutes } from './public-routes.ts';
export { featureManagementRoutes } from './management-routes.ts';
export { attachmentManagementRoutes } from './attachments-management-routes.ts';
export { boardIdeasPage } from './board-ideas-page.ts';
export { boardIdeaPage } from './board-idea-page.ts';
export { boardSubmitPage } from './board-submit-page.ts';
export { boardRoadmapPage } from './board-roadmap-page.ts';
export { registerShippingHandler } from './shipping.ts';
export { boardRoadmapEmbed } from './board-roadmap-embed.ts';
