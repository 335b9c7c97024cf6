/**
 * The commands that run and manage a Signpost server: `server`, `login`/`logout`/`whoami`,
 * `projects`, `keys`, `features`, `import`, `changelog`, `tags`, `releases`, `site`, `translations`,
 * `bugs`/`errors`/`logs`, `alerts`, `sourcemaps`, `board`/`moderation`, `webhooks` and `audit`. Each talks to the management API
 * (`<url>/api/v1`) with a personal access token; see src/manage/ for the shared client, config
 * file, options and output.
 */
import type { Command } from 'commander';
import { registerAlertCommands } from './alerts.ts';
import { registerAuditCommands } from './audit.ts';
import { registerBoardCommands } from './board.ts';
import { registerChangelogCommands } from './changelog.ts';
import { registerFeatureCommands } from './features.ts';
import { registerImportCommands } from './imports.ts';
import { registerKeyCommands } from './keys.ts';
import { registerPeopleCommands } from './people.ts';
import { registerLoginCommands } from './login.ts';
import { registerProjectCommands } from './projects.ts';
import { registerReleaseCommands } from './releases.ts';
import { registerReleaseHubCommands } from './release-hub.ts';
import { registerReportCommands } from './reports.ts';
import { registerServerCommands } from './server.ts';
import { registerSiteCommands } from './site.ts';
import { registerSourceMapCommands } from './sourcemaps.ts';
import { registerTagCommands } from './tags.ts';
import { registerTranslationCommands } from './translations.ts';
import { registerWebhookCommands } from './webhooks.ts';

export function registerManagementCommands(program: Command): void {
  registerServerCommands(program);
  registerLoginCommands(program);
  registerProjectCommands(program);
  registerKeyCommands(program);
  registerFeatureCommands(program);
  registerImportCommands(program);
  registerChangelogCommands(program);
  registerTagCommands(program);
  registerReleaseCommands(program);
  registerReleaseHubCommands(program);
  registerSiteCommands(program);
  registerTranslationCommands(program);
  registerReportCommands(program);
  registerAlertCommands(program);
  registerSourceMapCommands(program);
  registerBoardCommands(program);
  registerWebhookCommands(program);
  registerAuditCommands(program);
  registerPeopleCommands(program);
}
