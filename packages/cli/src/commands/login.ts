/** `signpost login`, `logout` and `whoami`: a personal access token saved per server URL. */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { Client } from '../manage/client.ts';
import { withServer, usageExits, type CommonFlags } from '../manage/common.ts';
import { normaliseUrl, readConfig, resolveTarget, writeConfig, DEFAULT_URL } from '../manage/config.ts';
import { action, ApiError, CliError, EXIT } from '../manage/errors.ts';
import { printFields, printJson, say } from '../manage/output.ts';
import { readSecret } from '../manage/prompt.ts';
import { signUp, tokenFromPassword } from '../manage/sessions.ts';
import type { Answer } from '../manage/api.ts';

type Account = Answer<'getMe'>['account'];

export function registerLoginCommands(program: Command): void {
  withServer(
    usageExits(program.command('login'))
      .description(
        'Sign in: with a personal access token, or with e-mail and password (a token is then created for this machine)',
      )
      .option('--token <token>', 'a personal access token (sp_pat_…); - reads it from standard input')
      .option(
        '--email <email>',
        'sign in with this e-mail address; the password is asked for (or read from standard input)',
      )
      .option('--password-stdin', 'with --email: read the password from standard input'),
  )
    .addHelpText(
      'after',
      '\nThe token is checked with the server, then saved for that server URL in the CLI config file\n' +
        '(~/.config/signpost/config.json, %APPDATA%\\signpost\\config.json on Windows, or $SIGNPOST_CONFIG_DIR)\n' +
        'with permissions 0600. The URL becomes the default for later commands.\n\nExamples:\n' +
        '  signpost login --token sp_pat_… --url https://signpost.example.com\n  echo "$TOKEN" | signpost login --token -\n' +
        '  signpost login --email ada@example.com',
    )
    .action(
      action(async (flags: CommonFlags & { token?: string; email?: string; passwordStdin?: boolean }) => {
        const url = targetUrl(flags);
        if ((flags.token === undefined) === (flags.email === undefined))
          throw new CliError('Give either --token or --email');
        if (flags.email !== undefined) {
          const password = await readSecret(`Password for ${flags.email}: `, flags.passwordStdin === true);
          const { token, account } = await tokenFromPassword(url, { email: flags.email, password });
          return saveLogin(flags, url, token, account);
        }
        const token = (flags.token === '-' ? readFileSync(0, 'utf8') : flags.token!).trim();
        if (!token) throw new CliError('The token is empty');
        const { account } = await new Client(url, token).get<{ account: Account }>('/me');
        saveLogin(flags, url, token, account);
      }),
    );

  withServer(
    usageExits(program.command('signup'))
      .description(
        'Create an account with e-mail and password, then sign in (the first account of a server administers it)',
      )
      .requiredOption('--email <email>', 'your e-mail address (a verification e-mail is sent)')
      .option('--name <name>', 'your name')
      .option('--password-stdin', 'read the password from standard input instead of asking'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost signup --email ada@example.com --name Ada --url http://localhost:3000',
    )
    .action(
      action(async (flags: CommonFlags & { email: string; name?: string; passwordStdin?: boolean }) => {
        const url = targetUrl(flags);
        const password = await readSecret(
          'Choose a password (at least 10 characters, hard to guess): ',
          flags.passwordStdin === true,
        );
        await signUp(url, { email: flags.email, password, name: flags.name });
        // The server gives one answer whether or not the address was free (and e-mails it either
        // way); signing in with the password tells: it works for the new account, and for an
        // existing one whose owner typed its password.
        let signedIn: Awaited<ReturnType<typeof tokenFromPassword>>;
        try {
          signedIn = await tokenFromPassword(url, { email: flags.email, password });
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) {
            throw new CliError(
              `Could not sign in as ${flags.email}. If this address already has an account, an e-mail went to it: ` +
                'sign in with `signpost login --email` or reset your password.',
              EXIT.api,
            );
          }
          throw error;
        }
        saveLogin(flags, url, signedIn.token, signedIn.account);
        if (!flags.json && !signedIn.account.verified)
          say(`Check your e-mail: a verification link went to ${signedIn.account.email}.`);
      }),
    );

  withServer(
    usageExits(program.command('logout')).description(
      'Forget the saved token of a server (the token itself stays valid until revoked)',
    ),
  ).action(
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

  withServer(
    usageExits(program.command('whoami')).description('Show the signed-in account and the default project'),
  ).action(
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

function targetUrl(flags: CommonFlags): string {
  return normaliseUrl(flags.url ?? process.env['SIGNPOST_URL'] ?? readConfig().url ?? DEFAULT_URL);
}

function saveLogin(flags: CommonFlags, url: string, token: string, account: Account): void {
  const config = readConfig();
  config.url = url;
  config.servers[url] = { ...config.servers[url], token, email: account.email };
  const path = writeConfig(config);
  if (flags.json) printJson({ url, account, configFile: path });
  else say(`Signed in to ${url} as ${account.email}. Token saved in ${path}.`);
}
