/**
 * `signpost site …`: a project's site configuration (maintenance, status messages, feature
 * flags, environments, debug mode). Every change moves the public `lastUpdated`.
 */
import type { Command } from 'commander';
import {
  defined,
  integer,
  list,
  oneOf,
  onOff,
  projectContext,
  readText,
  requireChanges,
  usageExits,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';
import { registerFlagHistoryCommand } from './flag-history.ts';

type Maintenance = Answer<'manageGetMaintenance'>;
type Message = Answer<'manageListMessages'>['messages'][number];
type Flag = Answer<'manageListFlags'>['featureFlags'][number];
type Environment = Answer<'manageListEnvironments'>['environments'][number];
type SiteConfig = Answer<'manageGetSiteConfig'>;

function showMaintenance(m: Maintenance): void {
  printFields([
    ['Maintenance', m.enabled ? `ON (${m.type})` : 'off'],
    ['Type', m.type],
    ['Custom HTML', m.customHtml ? `${m.customHtml.length} characters` : null],
    ['Back by', m.expectedRestoration],
    ['Status link', m.showStatusLink ? (m.statusPageUrl ?? 'yes') : 'no'],
    ['Status page', m.statusPageUrl],
    ['Bypass keys', m.whitelist.localStorageKeys.join(', ')],
    ['Bypass e-mails', m.whitelist.emails.join(', ')],
    ['Bypass IPs', m.whitelist.ips.join(', ')],
  ]);
}

const MESSAGE_TYPES = ['info', 'success', 'warning', 'error'] as const;
const nullable = (value: string | undefined) =>
  value === undefined ? undefined : value === '' || value === 'none' ? null : value;

export function registerSiteCommands(program: Command): void {
  const site = usageExits(
    program
      .command('site')
      .description("A project's site configuration: maintenance, messages, flags, environments, debug mode"),
  );

  withProject(site.command('show').description('The whole site configuration')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const config = await client.get<SiteConfig>(`${base}/site-config`);
      if (flags.json) return printJson(config);
      showMaintenance(config.maintenance);
      printFields([
        ['Debug mode', config.debugMode],
        ['Last updated', config.lastUpdated],
      ]);
      say('\nMessages:');
      printTable(
        ['id', 'type', 'priority', 'shown now', 'text'],
        config.messages.map((m) => [m.id, m.type, m.priority, m.live, m.text]),
        '  none',
      );
      say('\nFeature flags:');
      printTable(
        ['key', 'enabled'],
        config.featureFlags.map((f) => [f.key, f.enabled]),
        '  none',
      );
      say('\nEnvironments:');
      printTable(
        ['slug', 'name', 'url', 'color', 'debug'],
        config.environments.map((e) => [e.slug, e.name, e.url, e.color, e.debugEnabled]),
        '  none',
      );
    }),
  );

  withProject(
    site
      .command('maintenance')
      .description('Show or change maintenance mode; with no options it shows the settings')
      .argument('[state]', 'on or off', onOff)
      .option(
        '--type <type>',
        'full (app blocked), banner (notice only) or custom (blocked, your HTML shown)',
        oneOf(['full', 'banner', 'custom'] as const),
      )
      .option('--html <html>', 'HTML shown in custom mode ("" clears it)')
      .option('--html-file <file>', 'read the custom HTML from a file')
      .option('--until <iso>', 'expected restoration time, ISO 8601 ("none" clears it)')
      .option('--status-url <url>', 'status page URL ("none" clears it)')
      .option('--status-link', 'show a link to the status page')
      .option('--no-status-link', 'hide the link to the status page')
      .option('--allow-keys <list>', 'localStorage keys that bypass maintenance (comma-separated; "" clears)', list)
      .option('--allow-emails <list>', 'e-mail addresses that bypass maintenance', list)
      .option('--allow-ips <list>', 'IP addresses or CIDR ranges that bypass maintenance', list),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost site maintenance on --type banner --until 2026-12-01T18:00:00Z\n  signpost site maintenance off',
    )
    .action(
      action(async (state: boolean | undefined, flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const whitelist = defined({
          localStorageKeys: flags['allowKeys'],
          emails: flags['allowEmails'],
          ips: flags['allowIps'],
        });
        const body = defined({
          enabled: state,
          type: flags['type'],
          customHtml: nullable(readText(flags['html'], flags['htmlFile'], 'custom HTML')),
          expectedRestoration: nullable(flags['until']),
          statusPageUrl: nullable(flags['statusUrl']),
          showStatusLink: flags['statusLink'],
          whitelist: Object.keys(whitelist).length > 0 ? whitelist : undefined,
        });
        const maintenance =
          Object.keys(body).length === 0
            ? await client.get<Maintenance>(`${base}/site-config/maintenance`)
            : await client.patch<Maintenance>(`${base}/site-config/maintenance`, body);
        if (flags.json) printJson(maintenance);
        else showMaintenance(maintenance);
      }),
    );

  withProject(
    site.command('debug').description('Turn debug mode on or off').argument('<state>', 'on or off', onOff),
  ).action(
    action(async (state: boolean, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const config = await client.patch<SiteConfig>(`${base}/site-config`, { debugMode: state });
      if (flags.json) printJson(config);
      else say(`Debug mode is ${config.debugMode ? 'on' : 'off'}.`);
    }),
  );

  const flagsCommand = site.command('flags').description('Feature flags');
  withProject(flagsCommand.command('list').description('Feature flags by key')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ featureFlags: Flag[] }>(`${base}/site-config/flags`);
      if (flags.json) return printJson(result);
      printTable(
        ['key', 'enabled'],
        result.featureFlags.map((f) => [f.key, f.enabled]),
        'No feature flags.',
      );
    }),
  );
  withProject(
    flagsCommand
      .command('set')
      .description('Create a flag or turn it on or off')
      .argument('<key>', 'flag key')
      .argument('<state>', 'on or off', onOff),
  ).action(
    action(async (key: string, state: boolean, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const flag = await client.put<Flag>(`${base}/site-config/flags/${encodeURIComponent(key)}`, { enabled: state });
      if (flags.json) printJson(flag);
      else say(`Flag ${flag.key} is ${flag.enabled ? 'on' : 'off'}.`);
    }),
  );
  withProject(flagsCommand.command('delete').description('Delete a flag').argument('<key>', 'flag key')).action(
    action(async (key: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(`${base}/site-config/flags/${encodeURIComponent(key)}`);
      if (flags.json) printJson({ deleted: key });
      else say(`Deleted flag ${key}.`);
    }),
  );

  registerFlagHistoryCommand(flagsCommand);
  // `signpost flags history <key>`, as the flag's page in the dashboard names it.
  registerFlagHistoryCommand(usageExits(program.command('flags').description('Feature flags: see also `site flags`')));

  const messages = site.command('messages').description('Status messages');
  withProject(messages.command('list').description('Every status message, by priority')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ messages: Message[] }>(`${base}/site-config/messages`);
      if (flags.json) return printJson(result);
      printTable(
        ['id', 'type', 'priority', 'active', 'shown now', 'starts', 'expires', 'text'],
        result.messages.map((m) => [m.id, m.type, m.priority, m.isActive, m.live, m.startsAt, m.expiresAt, m.text]),
        'No status messages.',
      );
    }),
  );
  const messageOptions = (command: Command) =>
    command
      .option('--priority <n>', 'higher shows first', integer('--priority', -1000, 1000))
      .option('--starts <iso>', 'show from this time ("none" clears)')
      .option('--expires <iso>', 'show until this time ("none" clears)')
      .option('--inactive', 'switch it off')
      .option('--active', 'switch it on');
  const messageBody = (flags: Record<string, any>) =>
    defined({
      type: flags['type'],
      text: flags['text'],
      priority: flags['priority'],
      startsAt: nullable(flags['starts']),
      expiresAt: nullable(flags['expires']),
      isActive: flags['inactive'] ? false : flags['active'] ? true : undefined,
    });
  messageOptions(
    withProject(messages.command('add').description('Add a status message'))
      .requiredOption('--type <type>', 'info, success, warning or error', oneOf(MESSAGE_TYPES))
      .requiredOption('--text <text>', 'the message'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost site messages add --type warning --text "Maintenance tonight 22:00 UTC" --priority 10',
    )
    .action(
      action(async (flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const message = await client.post<Message>(`${base}/site-config/messages`, messageBody(flags));
        if (flags.json) return printJson(message);
        say(`Added message ${message.id}${message.live ? '' : ' (not shown now: inactive or scheduled)'}.`);
      }),
    );
  messageOptions(
    withProject(messages.command('edit').description('Change a status message').argument('<id>', 'message id'))
      .option('--type <type>', 'info, success, warning or error', oneOf(MESSAGE_TYPES))
      .option('--text <text>', 'the message'),
  ).action(
    action(async (id: string, flags: CommonFlags & Record<string, any>) => {
      const { client, base } = projectContext(flags);
      const body = messageBody(flags);
      requireChanges(body, '--type, --text, --priority, --starts, --expires, --active, --inactive');
      const message = await client.patch<Message>(`${base}/site-config/messages/${encodeURIComponent(id)}`, body);
      if (flags.json) printJson(message);
      else say(`Updated message ${message.id}.`);
    }),
  );
  withProject(messages.command('delete').description('Delete a status message').argument('<id>', 'message id')).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(`${base}/site-config/messages/${encodeURIComponent(id)}`);
      if (flags.json) printJson({ deleted: id });
      else say(`Deleted message ${id}.`);
    }),
  );

  const envs = site.command('envs').description('Environments (name, slug, URL, colour, debug)');
  withProject(envs.command('list').description('Environments in their order')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ environments: Environment[] }>(`${base}/site-config/environments`);
      if (flags.json) return printJson(result);
      printTable(
        ['id', 'slug', 'name', 'url', 'color', 'debug'],
        result.environments.map((e) => [e.id, e.slug, e.name, e.url, e.color, e.debugEnabled]),
        'No environments.',
      );
    }),
  );
  const envOptions = (command: Command) =>
    command
      .option('--url <url>', "the environment's address", undefined)
      .option('--color <hex>', 'hex colour, e.g. #16a34a')
      .option('--debug', 'debug on in this environment')
      .option('--no-debug', 'debug off in this environment');
  // `--url` names the server on other commands; here it is the environment's, so the server option is --server-url.
  const withEnvProject = (command: Command) =>
    command
      .option('--server-url <url>', 'Signpost server URL (default: $SIGNPOST_URL or the one you logged in to)')
      .option('--json', 'print JSON for scripts instead of text')
      .option(
        '-p, --project <id>',
        'project id (default: $SIGNPOST_PROJECT, else the one chosen with `signpost projects use`)',
      );
  const envContext = (flags: Record<string, any>) =>
    projectContext({ url: flags['serverUrl'], project: flags['project'], json: flags['json'] });
  envOptions(
    withEnvProject(
      envs
        .command('add')
        .description('Add an environment')
        .argument('<name>', 'display name')
        .requiredOption('--slug <slug>', 'lowercase letters, digits, hyphens'),
    ),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost site envs add Staging --slug staging --url https://staging.example.com --color "#f59e0b" --debug',
    )
    .action(
      action(async (name: string, flags: Record<string, any>) => {
        const { client, base } = envContext(flags);
        const env = await client.post<Environment>(
          `${base}/site-config/environments`,
          defined({
            name,
            slug: flags['slug'],
            url: flags['url'],
            color: flags['color'],
            debugEnabled: flags['debug'],
          }),
        );
        if (flags['json']) return printJson(env);
        say(`Added environment ${env.name} (${env.slug}).`);
      }),
    );
  envOptions(
    withEnvProject(
      envs
        .command('edit')
        .description('Change an environment')
        .argument('<slug>', 'environment slug or id')
        .option('--name <name>', 'display name')
        .option('--slug <slug>', 'new slug'),
    ),
  ).action(
    action(async (ref: string, flags: Record<string, any>) => {
      const { client, base } = envContext(flags);
      const body = defined({
        name: flags['name'],
        slug: flags['slug'],
        url: flags['url'],
        color: flags['color'],
        debugEnabled: flags['debug'],
      });
      requireChanges(body, '--name, --slug, --url, --color, --debug, --no-debug');
      const env = await client.patch<Environment>(`${base}/site-config/environments/${encodeURIComponent(ref)}`, body);
      if (flags['json']) printJson(env);
      else say(`Updated environment ${env.name} (${env.slug}).`);
    }),
  );
  withProject(
    envs.command('delete').description('Delete an environment').argument('<slug>', 'environment slug or id'),
  ).action(
    action(async (ref: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(`${base}/site-config/environments/${encodeURIComponent(ref)}`);
      if (flags.json) printJson({ deleted: ref });
      else say(`Deleted environment ${ref}.`);
    }),
  );
}
