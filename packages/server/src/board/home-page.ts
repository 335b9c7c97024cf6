/**
 * The server's root `/`: an HTML page, never a JSON 404 (decisions.md). It says what runs here
 * and links the demo board when the demo is on, and the API references.
 */
import type { FastifyInstance } from 'fastify';
import { html } from 'htm/preact';
import { BOARD_ASSETS, sendAsset } from '../routing/board/assets.ts';
import { negotiateLocale, translator } from '../routing/board/i18n.ts';
import { sendPage } from '../routing/board/render.ts';

export async function homePage(app: FastifyInstance, options: { demoBoard: string | undefined }): Promise<void> {
  // The root page uses the board's stylesheet, so it is served here too.
  app.get(BOARD_ASSETS.css.path, { schema: { hide: true } }, (request, reply) =>
    sendAsset(request, reply, BOARD_ASSETS.css),
  );
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const locale = negotiateLocale(request.headers, undefined);
    const t = translator(locale);
    return sendPage(
      request,
      reply,
      html`<html lang=${locale}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          <link rel="icon" href="data:," />
          <title>${t('home.title')}</title>
          <link rel="stylesheet" href=${BOARD_ASSETS.css.path} />
        </head>
        <body>
          <main id="content" class="wrap">
            <h1>${t('home.title')}</h1>
            <p>${t('home.intro')}</p>
            <p><a class="button" href="/app/sign-in">${t('home.dashboard')}</a></p>
            ${options.demoBoard ? html`<p><a href=${options.demoBoard}>${t('home.demo')}</a></p>` : null}
            <h2>${t('home.apis')}</h2>
            <ul>
              <li><a href="/api/public/v1/docs">${t('home.publicApi')}</a></li>
              <li><a href="/api/v1/docs">${t('home.managementApi')}</a></li>
            </ul>
          </main>
        </body>
      </html>`,
    );
  });
}
