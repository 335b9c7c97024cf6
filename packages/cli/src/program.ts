/**
 * The `signpost` program. Each command lives in its own module under src/commands/ and exports a
 * `register...` function; add a new command by writing that module and one line below.
 */
import { Command } from 'commander';
import { registerManagementCommands } from './commands/manage.ts';
import { registerMcpCommands } from './commands/mcp-setup.ts';
import { VERSION } from './version.ts';

export function createProgram(): Command {
  const program = new Command('signpost')
    .description('Signpost command-line tool')
    .version(VERSION, '-v, --version')
    .showHelpAfterError()
    .showSuggestionAfterError();
  registerMcpCommands(program);
  registerManagementCommands(program);
  return program;
}
