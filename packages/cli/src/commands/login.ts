/** `signpost login`, `logout` and `whoami`: a personal access token saved per server URL. */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { Client } from '../manage/client.ts';
import { withServer, usageExits, type CommonFlags } from '../manage/common.ts';
import { normaliseUrl, readConfig, resolveTarget, writeConfig, DEFAULT_URL } from '../manage/config.ts';
import { action, CliError } from '../manage/errors.ts';
import { printFields, printJson, say } from '../manage/output.ts';

interface Account {
  id: string;
  email: string;
  name: string;
  verified: boolean;
}

export function registerLoginCommands(program: Command): void {
  withServer(
    usageExits(program.command('login'))
      .description('Sign in with a personal access token (create one in the dashboard or with POST /api/v1/me/tokens)')
      .requiredOption('--token <token>', 'the personal access token (sp_pat_…); - reads it from standard input'),
  )
    .addHelpText(
      'after',
      '\nThe token is checked with the server, then saved for that server URL in the CLI config file\n' +
        '(~/.config/signpost/config.json, %APPDATA%\\signpost\\config.json on Windows, or $SIGNPOST_CONFIG_DIR)\n' +
        'with permissions 0600. The URL becomes the default for later commands.\n\nExamples:\n' +
        '  signpost login --token sp_pat_… --url https://signpost.example.com\n  echo "$TOKEN" | signpost login --token -',
    )
    .action(
      action(async (flags: CommonFlags & { token: string }) => {
        const config = readConfig();
        const url = normaliseUrl(flags.url ?? process.env['SIGNPOST_URL'] ?? config.url ?? DEFAULT_URL);
        const token = (flags.token === '-' ? readFileSync(0, 'utf8') : flags.token).trim();
        if (!token) throw new CliError('The token is empty');
        const { account } = await new Client(url, token).get<{ account: Account }>('/me');
        config.url = url;
        config.servers[url] = { ...config.servers[url], token, email: account.email };
        const path = writeConfig(config);
        if (flags.json) printJson({ url, account, configFile: path });
        else say(`Signed in to ${url} as ${account.email}. Token saved in ${path}.`);
      }),
    );

  withServer(usageExits(program.command('logout')).description('Forget the saved token of a server (the token itself stays valid until revoked)'))
    .action(
      action(async (flags: CommonFlags) => {
        const target = resolveTarget(flags);
        const entry = target.config.servers[target.url];
        const had = Boolean(entry?.token);
        if (entry) delete entry.token;
        writeConfig(target.config);
        if (flags.json) printJson({ url: target.url, signedOut: had });
        else say(had ? `Signed out of ${target.url}.` : `No token was saved for ${target.url}.`);
      }),
    );

  withServer(usageExits(program.command('whoami')).description('Show the signed-in account and the default project'))
    .action(
      action(async (flags: CommonFlags) => {
        const target = resolveTarget(flags);
        const { account } = await Client.signedIn(target).get<{ account: Account }>('/me');
        if (flags.json) printJson({ url: target.url, account, project: target.project ?? null });
        else
          printFields([
            ['Server', target.url],
            ['Account', `${account.email}${account.name ? ` (${account.name})` : ''}`],
            ['Verified', account.verified],
            ['Project', target.project ?? '(none; see `signpost projects use`)'],
          ]);
      }),
    );
}
