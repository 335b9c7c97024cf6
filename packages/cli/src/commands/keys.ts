/** `signpost keys …`: a project's public API keys. */
import type { Command } from 'commander';
import { list, oneOf, projectContext, usageExits, withProject, type CommonFlags } from '../manage/common.ts';
import { action } from '../manage/errors.ts';
import { printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type ApiKey = Answer<'listApiKeys'>['keys'][number];

export function registerKeyCommands(program: Command): void {
  const keys = usageExits(
    program.command('keys').description("A project's API keys for the public API (svc_live_… and svc_test_…)"),
  );

  withProject(keys.command('list').description('Keys by prefix, revoked ones included')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ keys: ApiKey[] }>(`${base}/keys`);
      if (flags.json) return printJson(result);
      printTable(
        ['id', 'name', 'env', 'kind', 'prefix', 'scopes', 'created', 'revoked'],
        result.keys.map((k) => [
          k.id,
          k.name,
          k.environment,
          k.publishable ? 'publishable' : 'secret',
          `${k.prefix}…`,
          k.scopes.join(','),
          k.createdAt,
          k.revokedAt,
        ]),
        'No keys yet. Create one with: signpost keys create --env live --scopes public:read,features:read',
      );
      // One DSN per project: the same for every key, with the key in place of `<key>`.
      const dsn = result.keys[0]?.sentryDsn;
      if (dsn) say(`\nSentry DSN: ${dsn} (put the whole key in place of <key>)`);
    }),
  );

  withProject(
    keys
      .command('create')
      .description('Create a key; it is shown once')
      .requiredOption('--env <env>', 'live or test', oneOf(['live', 'test'] as const))
      .requiredOption(
        '--scopes <list>',
        'comma-separated permissions, e.g. public:read,features:read,features:write',
        list,
      )
      .option('--name <name>', 'a label for the key')
      .option(
        '--publishable',
        'a key to embed in a web page or app (widget, browser SDKs): it cannot change existing features',
        false,
      ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost keys create --env live --scopes public:read,features:read,features:write,bugs:write --name server\n' +
        '  signpost keys create --env live --scopes public:read,features:read,features:write,errors:write --publishable --name web',
    )
    .action(
      action(
        async (
          flags: CommonFlags & { env: 'live' | 'test'; scopes: string[]; name?: string; publishable: boolean },
        ) => {
          const { client, base } = projectContext(flags);
          const created = await client.post<{ key: string; sentryDsn?: string; apiKey: ApiKey }>(`${base}/keys`, {
            environment: flags.env,
            scopes: flags.scopes,
            publishable: flags.publishable,
            ...(flags.name ? { name: flags.name } : {}),
          });
          if (flags.json) return printJson(created);
          say(created.key);
          const kind = created.apiKey.publishable ? 'publishable' : 'secret';
          process.stderr.write(
            `Created ${kind} ${flags.env} key ${created.apiKey.id} with ${created.apiKey.scopes.join(', ')}. It is shown only now: store it safely.\n`,
          );
          // The DSN holds the whole key too: Sentry SDKs take it unchanged (Sentry.init({ dsn })).
          if (created.sentryDsn) process.stderr.write(`Sentry DSN: ${created.sentryDsn}\n`);
        },
      ),
    );

  withProject(
    keys
      .command('revoke')
      .description('Revoke a key; the public API refuses it from the next request on')
      .argument('<keyId>', 'key id (see keys list)'),
  ).action(
    action(async (keyId: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const key = await client.delete<ApiKey>(`${base}/keys/${encodeURIComponent(keyId)}`);
      if (flags.json) printJson(key);
      else say(`Revoked ${key.prefix}… (${key.id}).`);
    }),
  );
}
