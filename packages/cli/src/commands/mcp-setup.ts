/** `signpost mcp setup`: registers the Signpost docs MCP server in the user's editors. */
import { type Command, Option } from 'commander';
import { EDITOR_IDS, type EditorId } from '../mcp-setup/editors.ts';
import { hostPlatform, PLATFORMS, toPlatform } from '../mcp-setup/platform.ts';
import { runMcpSetup } from '../mcp-setup/run.ts';

interface SetupFlags {
  dryRun?: boolean;
  hosted?: string;
  project?: string;
  editor?: EditorId[];
  user: boolean;
  platform?: string;
}

/** Adds the `mcp` command group (with `setup`) to the program. */
export function registerMcpCommands(program: Command): void {
  const mcp = program.command('mcp').description('Set up the Signpost MCP servers in AI editors');
  mcp
    .command('setup')
    .description(
      'Detect Claude Desktop, Cursor, VS Code and Windsurf and register the Signpost docs MCP server ' +
        '("service-docs": npx -y @signpost/docs-mcp@latest) in each one\'s MCP config',
    )
    .option('--dry-run', 'show the changes as a diff and write nothing')
    .option(
      '--hosted <url>',
      'also add the hosted Signpost MCP server at <url> as "service" where the editor supports remote servers',
      parseUrl,
    )
    .option('--project <dir>', 'also write the project-level files <dir>/.cursor/mcp.json and <dir>/.vscode/mcp.json')
    .addOption(
      new Option('--editor <name>', 'only set up this editor (repeatable)')
        .choices(EDITOR_IDS)
        .argParser((value: string, previous: EditorId[] | undefined) => {
          if (!(EDITOR_IDS as readonly string[]).includes(value)) {
            throw new Error(`unknown editor "${value}"; use one of: ${EDITOR_IDS.join(', ')}`);
          }
          return [...(previous ?? []), value as EditorId];
        }),
    )
    .option('--no-user', 'skip the user-level configs (use with --project)')
    .addOption(
      new Option('--platform <platform>', 'config layout to use')
        .choices([...PLATFORMS, 'macos', 'windows'])
        .hideHelp(),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  npx @signpost/cli@latest mcp setup\n  npx @signpost/cli@latest mcp setup --dry-run\n' +
        '  npx @signpost/cli@latest mcp setup --project . --hosted https://signpost.example.com/mcp',
    )
    .action((flags: SetupFlags) => {
      const result = runMcpSetup(
        {
          platform: flags.platform ? toPlatform(flags.platform) : hostPlatform(),
          env: process.env,
          ...(flags.editor ? { editors: flags.editor } : {}),
          user: flags.user,
          ...(flags.project ? { projectDir: flags.project } : {}),
          ...(flags.hosted ? { hostedUrl: flags.hosted } : {}),
          dryRun: flags.dryRun === true,
        },
        (text) => console.log(text),
      );
      process.exitCode = result.exitCode;
    });
}

function parseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`"${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`"${value}" is not an http(s) URL`);
  return value;
}
