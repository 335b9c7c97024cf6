/**
 * `signpost server start|migrate|export|restore`: run the Signpost server installed next to the CLI
 * (export and restore: the whole instance as one zip, between SQLite and PostgreSQL either way).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { action } from '../manage/errors.ts';
import { integer, usageExits } from '../manage/common.ts';
import { runServerScript } from '../manage/server-process.ts';

interface ServerFlags {
  port?: number;
  host?: string;
  databaseUrl?: string;
  dataDir?: string;
  publicUrl?: string;
}

function serverEnv(flags: ServerFlags): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (flags.port !== undefined) env['PORT'] = String(flags.port);
  if (flags.host !== undefined) env['HOST'] = flags.host;
  if (flags.databaseUrl !== undefined) env['DATABASE_URL'] = flags.databaseUrl;
  if (flags.dataDir !== undefined) env['DATA_DIR'] = flags.dataDir;
  if (flags.publicUrl !== undefined) env['PUBLIC_URL'] = flags.publicUrl;
  return env;
}

const databaseOptions = (command: Command) =>
  command
    .option(
      '--database-url <url>',
      'postgres://… for PostgreSQL, or sqlite:<file> (default: $DATABASE_URL, else SQLite in the data folder)',
    )
    .option('--data-dir <dir>', 'data folder for SQLite and development e-mails (default: $DATA_DIR, else ./data)');

export function registerServerCommands(program: Command): void {
  const server = usageExits(
    program.command('server').description('Run the Signpost server installed next to the CLI (Node 22.18+)'),
  );
  server.addHelpText(
    'after',
    '\nThe server package (@signpost/server) must be installed next to the CLI: in a clone of the Signpost repository,\n' +
      '`npm install` links both. Otherwise set SIGNPOST_SERVER_DIR to the server package folder. Every other server\n' +
      'setting is read from the environment (see the server README).',
  );

  databaseOptions(
    server
      .command('start')
      .description('Start the server: applies migrations, seeds the demo project on first start, serves the APIs')
      .option('--port <port>', 'port to listen on (default: $PORT, else 3000)', integer('--port', 0, 65535))
      .option('--host <host>', 'address to listen on (default: $HOST, else 0.0.0.0)')
      .option('--public-url <url>', 'the address users reach the server at (default: $PUBLIC_URL)'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost server start\n  signpost server start --port 8080 --database-url postgres://signpost@localhost/signpost',
    )
    .action(
      action(async (flags: ServerFlags) => {
        process.exitCode = await runServerScript('src/main.ts', serverEnv(flags));
      }),
    );

  databaseOptions(server.command('migrate').description('Apply pending database migrations and exit'))
    .addHelpText('after', '\nExample:\n  signpost server migrate --database-url postgres://signpost@localhost/signpost')
    .action(
      action(async (flags: ServerFlags) => {
        process.exitCode = await runServerScript('src/cli/migrate.ts', serverEnv(flags));
      }),
    );

  databaseOptions(
    server
      .command('export')
      .description('Write the whole instance to one zip of JSON lines per table (secrets left out)')
      .argument('<file>', 'the archive to write, e.g. signpost.zip'),
  )
    .addHelpText('after', '\nExample:\n  signpost server export signpost.zip --data-dir /var/lib/signpost')
    .action(
      action(async (file: string, flags: ServerFlags) => {
        process.exitCode = await runServerScript('src/cli/export.ts', serverEnv(flags), [resolve(file)]);
      }),
    );

  databaseOptions(
    server
      .command('restore')
      .description(
        'Fill a new database from an export (before the server first starts on it); prints the re-issued API keys once',
      )
      .argument('<file>', 'the archive written by `signpost server export`'),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost server restore signpost.zip --database-url postgres://signpost@localhost/signpost',
    )
    .action(
      action(async (file: string, flags: ServerFlags) => {
        process.exitCode = await runServerScript('src/cli/restore.ts', serverEnv(flags), [resolve(file)]);
      }),
    );
}
